import { AUTH_METHOD_NAMES } from "../domain/catalog/providers";
import { type CredentialRow, findCredential, listCredentials } from "../domain/credentials/store";
import { deleteCredential } from "../domain/credentials/retirement";
import { recheckCredential } from "../domain/credentials/replace";
import { GLOBAL_PROVIDER } from "../domain/credentials/identity";
import { verifiedForm } from "../domain/console-sessions/csrf";
import { ApiError } from "../platform/errors/api-error";
import { hasActiveJob, lastSuccesses } from "../domain/jobs/store";
import { type FormOutcome, onPage } from "../web/form-outcome";
import { providerName } from "../web/provider-name";
import { EXPIRY_WARNING_DAYS } from "../domain/credentials/expiry-warnings";
import { type ConsoleContext, consoleUserOf, workspaceRoleOf } from "./context";
import { roleMay } from "../domain/workspaces/roles";
import { consentTermsOf, MAX_CONSENT_DAYS, setConsentDays } from "../domain/workspaces/store";
import { isSandboxOnly } from "../domain/workspaces/provider-access";
import { kst } from "../web/kst";
import { CsrfField, DataTable, DeleteForm, Outcome, Page } from "../web/layout";
import { WorkspaceNav } from "./workspace-nav";
import { currentStatuses } from "../domain/business-status/check";
import { BusinessBadge } from "./business-status";
import { holderName } from "../domain/certificates/verify";
import { kstDate } from "../../contracts/korean-time";
import { raw } from "hono/html";
import { CHECK_IN_PLACE_SCRIPT } from "./check-in-place";

const STATUS = { ACTIVE: "사용 중", SUPERSEDED: "교체됨", DELETED: "삭제됨" } as const;
const CHECK = { CHECKING: "확인 중", VALID: "로그인됨", INVALID: "거절됨", UNKNOWN: "확인 못 함" } as const;
const DAY_MS = 86_400_000;
/** How long a holder's withdrawal stays announced at the top of the page. */
const WITHDRAWAL_NOTICE_MS = 30 * DAY_MS;

/** Credentials their holders withdrew lately (domain/consent-withdrawal): the owner learns it here as well as by webhook. */
function WithdrawalNotice(props: { rows: CredentialRow[]; now: number }) {
  const withdrawn = props.rows.filter((row) => row.revokedReason === "HOLDER_WITHDREW" && props.now - row.deletedAt! < WITHDRAWAL_NOTICE_MS);
  if (withdrawn.length === 0) return null;
  return (
    <div class="notice" role="status" id="withdrawal-notice">
      <p>소유자가 동의를 철회한 자격 증명이 있습니다. 비밀 값은 지워졌고, 이 자격 증명으로는 더 수집하지 않습니다.</p>
      <ul>
        {withdrawn.map((row) => (
          <li data-credential-id={row.id}>{`${providerName(row.providerCode)} ${credentialName(row)}: ${kst(row.deletedAt!)}`}</li>
        ))}
      </ul>
    </div>
  );
}

/** Days until a certificate's validity ends (rounded up), shown as a badge from 30 days ahead; null when not soon. */
function daysLeft(row: CredentialRow, now: number): number | null {
  // A certificate's validity, or an Open Banking consent's end, or the holder's consent's, whichever comes first.
  const ends = [row.certificate?.notAfter ?? row.consent?.expiresAt, row.consentRecord?.expiresAt].flatMap((end) => (end ? [Date.parse(end)] : []));
  if (ends.length === 0 || row.status !== "ACTIVE") return null;
  const left = Math.ceil((Math.min(...ends) - now) / DAY_MS);
  return left <= EXPIRY_WARNING_DAYS[0] ? left : null;
}

/** What a row's 교체 registers anew, by method: the same login or certificate again supersedes this one. */
const REPLACE_TEXT: Record<CredentialRow["authMethod"], string> = { PROVIDER_LOGIN: "비밀번호 교체", CERTIFICATE: "인증서 교체", SIMPLE_AUTH: "다시 등록해 교체", OPEN_BANKING: "동의 다시 받기" };
const REPLACES: Record<CredentialRow["authMethod"], string> = {
  PROVIDER_LOGIN: "같은 아이디를 새 비밀번호로 다시 등록하면 이 자격 증명은 교체됨이 됩니다",
  CERTIFICATE: "갱신한 인증서를 다시 등록하면 이 인증서는 교체됨이 됩니다",
  SIMPLE_AUTH: "같은 사람의 간편인증을 다시 등록하면 이 자격 증명은 교체됨이 됩니다",
  OPEN_BANKING: "오픈뱅킹 동의를 다시 받으면 이 동의는 교체됨이 됩니다",
};

/** A credential as a person tells it apart: a certificate by its holder and expiry (its face), any other by its label. */
function credentialName(row: CredentialRow): string {
  const face = row.certificate;
  return face ? `인증서 ${holderName(face.commonName ?? face.subject)} · ${kstDate(Date.parse(face.notAfter))}까지` : (row.label ?? "");
}

/** A GET of a row's form address (a reload after posting, a shared link): the list it belongs to, not a 405. */
export const backToCredentials = (c: ConsoleContext<"workspaceId">) => c.redirect(`/console/w/${c.req.valid("param").workspaceId}/credentials`, 303);

/** The fragment naming a credential's row on this page, which a job's page links to. */
export const credentialAnchor = (credentialId: string) => `credential-${credentialId}`;

/** The workspace's credentials: live ones first; a certificate's label carries its expiry (domain/credentials/fields.ts maskedLabel). */
export const showCredentials = (c: ConsoleContext<"workspaceId">) => credentialsPage(c);

async function credentialsPage(c: ConsoleContext<"workspaceId">, shown: FormOutcome = {}): Promise<Response> {
  const user = consoleUserOf(c);
  const workspaceId = c.req.valid("param").workspaceId;
  const role = workspaceRoleOf(c);
  const rows = (await listCredentials(c.env.DB, workspaceId)).sort((a, b) => Number(b.status === "ACTIVE") - Number(a.status === "ACTIVE"));
  // The businesses the live certificates are issued for, as NTS shows them (none asked unless the deployment checks).
  const certified = rows.flatMap((row) => (row.status === "ACTIVE" && row.authMethod === "CERTIFICATE" && row.businessNumber ? [row.businessNumber] : []));
  const [sandboxOnly, successes, statuses, terms] = await Promise.all([isSandboxOnly(c.env.DB, workspaceId), lastSuccesses(c.env.DB, workspaceId), currentStatuses(c.env, workspaceId, certified), consentTermsOf(c.env.DB, workspaceId)]);
  const manages = roleMay(role, "credentials.manage");
  const base = `/console/w/${workspaceId}/credentials`;
  const now = Date.now();
  return c.html(
    <Page title="자격 증명" nav={<WorkspaceNav workspaceId={workspaceId} user={user} role={role} />}>
      <Outcome shown={shown} />
      <WithdrawalNotice rows={rows} now={now} />
      {sandboxOnly && (
        <p class="notice" role="status" id="sandbox-only">
          이메일 주소를 확인하기 전에는 샌드박스 기관만 쓸 수 있습니다. 가입할 때 받은 메일의 링크를 눌러 주세요.
        </p>
      )}
      {c.req.query("added") !== undefined && (
        <p class="notice" role="status">
          자격 증명을 등록했습니다. 기관에 한 번 로그인해 확인하며, 결과는 아래 확인 열에 나옵니다. 같은 계정이나 인증서를 다시 등록했다면 이전 것은 교체됨으로 바뀝니다.
        </p>
      )}
      {manages ? (
        <>
          <p>
            기관 계정은 파트너와 같은 등록 화면(등록 세션)으로 추가합니다. 비밀번호와 인증서는 이 콘솔을 거치지 않습니다. 비밀번호를 바꿨거나 인증서를 갱신했으면 그 행의 교체를 누르세요: 같은 계정이나 인증서를 다시 등록하면 이전 것은 교체됨이 됩니다.
          </p>
          <form method="post" action={`/console/w/${workspaceId}/credentials/connect`}>
            <CsrfField token={user.csrf} />
            <button type="submit">기관 계정 연결</button>
          </form>
          <form method="post" action={`${base}/consent-days`} id="consent-days">
            <CsrfField token={user.csrf} />
            <label for="days">{`소유자 동의 기간 (일, 최대 ${MAX_CONSENT_DAYS}일): 새로 받는 동의부터 적용됩니다`}</label>
            <input id="days" name="days" type="number" min="1" max={String(MAX_CONSENT_DAYS)} value={String(terms.days)} required />
            <button type="submit">동의 기간 저장</button>
          </form>
        </>
      ) : (
        <p id="owner-only">기관 계정 연결과 교체는 워크스페이스 소유자만 할 수 있습니다. 등록된 자격 증명으로 수집 작업은 실행할 수 있습니다.</p>
      )}
      <div id="check-outcome" aria-live="polite"></div>
      <DataTable stacked columns={["기관 · 방식", "이름 · 계정 · 인증서", "상태 · 확인", "기한 · 기록", ...(manages ? [{ hidden: "관리" }] : [])]}>
        {rows.map((row) => (
          <tr id={credentialAnchor(row.id)} data-credential-id={row.id}>
            <td>
              {providerName(row.providerCode)}
              <br />
              <small>{AUTH_METHOD_NAMES[row.authMethod]}</small>
            </td>
            <td>
              {credentialName(row)}
              {row.isDefault && <span class="badge" data-badge="default"> 기본</span>}
              {row.status === "ACTIVE" && row.authMethod === "CERTIFICATE" && row.businessNumber && <BusinessBadge status={statuses.get(row.businessNumber)} />}
              {daysLeft(row, now) !== null && (
                <span class="badge warning" data-badge="expiring">
                  {" "}
                  {daysLeft(row, now)! > 0 ? `만료 ${daysLeft(row, now)}일 전` : "만료됨"}
                </span>
              )}
            </td>
            <td>
              {/* The institution refused it (domain/credentials/job-credential.ts invalidateCredential): jobs fail with that refusal until it is registered again. */}
              <span data-status={row.status}>{row.status === "ACTIVE" && row.invalidReason ? `다시 등록 필요 (${row.invalidReason})` : row.revokedReason === "HOLDER_WITHDREW" ? "소유자가 철회" : STATUS[row.status]}</span>
              <br />
              <small data-check={row.checkState ?? ""}>로그인 확인: {row.checkState ? CHECK[row.checkState] : "-"}</small>
            </td>
            <td>
              {/* Until when its holder consented, and for whom (domain/credentials/consent-record.ts). */}
              <small data-consent-until={row.consentRecord?.expiresAt ?? ""}>
                동의 기한: {row.consentRecord ? `${kst(Date.parse(row.consentRecord.expiresAt))}${row.consentRecord.partner?.name ? ` (${row.consentRecord.partner.name} 요청)` : ""}` : "-"}
              </small>
              <br />
              <small data-last-success={successes.get(row.id) ?? ""}>마지막 성공: {successes.has(row.id) ? kst(successes.get(row.id)!) : "-"}</small>
              <br />
              <small>등록: {kst(row.createdAt)}</small>
            </td>
            {manages && (
              <td>
                {row.status === "ACTIVE" && (
                  <div class="row-actions">
                    {row.providerCode !== GLOBAL_PROVIDER && !row.invalidReason && (
                      // Posted in place by the page's script (the row then follows the check), or as a plain form without it.
                      <form method="post" action={`${base}/${row.id}/check`} data-check-in-place>
                        <CsrfField token={user.csrf} />
                        <button type="submit" aria-label={`${providerName(row.providerCode)} ${credentialName(row)} 지금 확인`}>
                          지금 확인
                        </button>
                      </form>
                    )}
                    <form method="post" action={`${base}/connect`}>
                      <CsrfField token={user.csrf} />
                      <input type="hidden" name="replace" value={row.id} />
                      {/* The name starts from what the button shows (a voice user says it); what it replaces is its description, the title. */}
                      <button type="submit" aria-label={`${providerName(row.providerCode)} ${credentialName(row)} ${REPLACE_TEXT[row.authMethod]}`} title={REPLACES[row.authMethod]}>
                        {REPLACE_TEXT[row.authMethod]}
                      </button>
                    </form>
                    <DeleteForm action={`${base}/${row.id}/delete`} csrf={user.csrf} label={`${providerName(row.providerCode)} ${credentialName(row)} 삭제`} />
                  </div>
                )}
              </td>
            )}
          </tr>
        ))}
      </DataTable>
      {rows.length === 0 && <p>등록된 자격 증명이 없습니다.</p>}
      <script nonce={c.get("cspNonce")}>{raw(CHECK_IN_PLACE_SCRIPT)}</script>
    </Page>,
    shown.error ? (shown.error.status as 400) : 200,
    // A refused check says when the next may be asked for, as the API's 429 does.
    shown.error?.headers,
  );
}

/** A row's form, checked against the session's CSRF token, its outcome shown on the list. */
const credentialForm = (act: (c: ConsoleContext<"workspaceId" | "credentialId">, credential: CredentialRow) => Promise<string>) => async (c: ConsoleContext<"workspaceId" | "credentialId">) => {
  await verifiedForm(c, consoleUserOf(c).sessionToken);
  return onPage(c, credentialsPage, async () => act(c, await findCredential(c.env.DB, c.req.valid("param").workspaceId, c.req.valid("param").credentialId)));
};

/** Logs in at the institution once more (as the API's check does); the result lands in the 확인 column. */
export const checkCredentialForm = credentialForm(async (c, credential) => {
  if (credential.providerCode === GLOBAL_PROVIDER || !(await recheckCredential(c.env, credential, credential.providerCode))) {
    throw new ApiError("CREDENTIAL_PROBE_FAILED", { message: "이 자격 증명으로는 로그인해 볼 수 없습니다. 다시 등록하거나 잠시 뒤 다시 확인해 주세요." });
  }
  return "기관에 로그인해 확인하고 있습니다. 잠시 뒤 새로 고치면 확인 열에 결과가 나옵니다.";
});

export const deleteCredentialForm = credentialForm(async (c, credential) => {
  await deleteCredential(c.env.DB, credential.workspaceId, credential.id, hasActiveJob);
  return "자격 증명을 삭제했습니다. 이 기관의 새 작업에는 더 쓰이지 않습니다.";
});

/** Sets the period of the consents holders give from now on (a whole number of days, at most a year). */
export async function consentDaysForm(c: ConsoleContext<"workspaceId">) {
  const fields = await verifiedForm(c, consoleUserOf(c).sessionToken);
  return onPage(c, credentialsPage, async () => {
    const days = Number((fields.days ?? "").slice(0, 8));
    if (!Number.isInteger(days) || days < 1 || days > MAX_CONSENT_DAYS) {
      throw new ApiError("INVALID_PARAM_FORMAT", { message: `동의 기간은 1일부터 ${MAX_CONSENT_DAYS}일까지의 정수여야 합니다.` });
    }
    await setConsentDays(c.env.DB, c.req.valid("param").workspaceId, days);
    return `새로 받는 동의는 ${days}일 동안 이어집니다. 이미 받은 동의의 기한은 바뀌지 않습니다.`;
  });
}
