import { changeWorkspacePlan, changeWorkspaceSuspension, grantUsageCredit, inspectWorkspace, rerunFailedJob } from "../../domain/operators/actions";
import { MAX_CREDIT_WON, spendableCredits } from "../../domain/billing/credits";
import { type AdminPageContext, actorOf, operatorCsrfOf, operatorOf } from "../context";
import { operatorMay } from "../../domain/operators/permissions";
import { PLANS } from "../../domain/workspaces/tables";
import { ApiError } from "../../platform/errors/api-error";
import { CsrfField, DataTable } from "../../web/layout";
import { kst } from "../../web/kst";
import { kstIso } from "../../../contracts/korean-time";
import { providerName } from "../../web/provider-name";
import { actionForm, AdminPage, answerForm, ReasonField } from "./layout";
import { CredentialStanding, JobOutcome } from "./job-parts";

/** One workspace: what it is, its keys and credentials without their secrets, its latest jobs; the actions the operator's role allows. */
export async function showWorkspace(c: AdminPageContext<"id">): Promise<Response> {
  const { workspace: w, ownerEmail, keys, credentials, jobs } = await inspectWorkspace(c.env, actorOf(c), c.req.valid("param").id);
  const credits = await spendableCredits(c.env.DB, w.id);
  const role = operatorOf(c).role;
  const csrf = operatorCsrfOf(c);
  const base = `/admin/workspaces/${w.id}`;
  const labels = new Map(credentials.map((r) => [r.id, r.label ?? r.authMethod]));
  return c.html(
    <AdminPage c={c} title={w.name}>
      <dl>
        <dt>id</dt>
        <dd>
          <code>{w.id}</code>
        </dd>
        <dt>소유자</dt>
        <dd data-field="owner">{ownerEmail ?? "-"}</dd>
        <dt>사업자등록번호</dt>
        <dd>{w.businessNumber ?? "-"}</dd>
        <dt>요금제</dt>
        <dd data-field="plan">{w.plan}</dd>
        <dt>파트너</dt>
        <dd>{w.isPartner ? "예" : w.billingWorkspaceId ? <a href={`/admin/workspaces/${w.billingWorkspaceId}`}>이 비즈니스에 연결한 파트너</a> : "아니오"}</dd>
        <dt>상태</dt>
        <dd data-field="status">{w.suspendedAt ? `정지 (${kst(w.suspendedAt)}부터)` : "이용 중"}</dd>
      </dl>
      {operatorMay(role, "workspaces.suspend") && (
        <form method="post" action={`${base}/${w.suspendedAt ? "restore" : "suspend"}`}>
          <CsrfField token={csrf} />
          <ReasonField id="suspension-reason" />
          <button type="submit" class={w.suspendedAt ? "" : "danger"}>{w.suspendedAt ? "이용 재개" : "이용 정지"}</button>
        </form>
      )}
      {operatorMay(role, "workspaces.plan") && (
        <form method="post" action={`${base}/plan`}>
          <CsrfField token={csrf} />
          <label for="plan">요금제 바꾸기</label>
          <select id="plan" name="plan">
            {PLANS.map((p) => (
              <option value={p} selected={p === w.plan}>
                {p}
              </option>
            ))}
          </select>
          <ReasonField id="plan-reason" />
          <button type="submit">요금제 바꾸기</button>
        </form>
      )}
      {operatorMay(role, "workspaces.credit") && (
        <form method="post" action={`${base}/credits`}>
          <CsrfField token={csrf} />
          <label for="credit-amount">사용 크레딧 주기 (원, 청구서에 카드보다 먼저 쓰입니다)</label>
          <input id="credit-amount" name="amount" type="number" min={1} max={MAX_CREDIT_WON} required />
          <label for="credit-expires">만료일 (그날 끝까지)</label>
          <input id="credit-expires" name="expiresOn" type="date" required />
          <ReasonField id="credit-reason" />
          <label for="credit-code">인증 앱의 지금 6자리 코드 (돈이 움직이는 작업이라 다시 묻습니다)</label>
          <input id="credit-code" name="code" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]{6}" maxlength={6} required />
          <button type="submit">크레딧 주기</button>
        </form>
      )}
      {credits.length > 0 && (
        <>
          <h2>남은 크레딧</h2>
          <ul id="credits">
            {credits.map((credit) => (
              <li data-remaining={credit.remaining}>
                {credit.remaining.toLocaleString("ko-KR")}원 / {credit.amount.toLocaleString("ko-KR")}원 · {kst(credit.expiresAt)}까지 · {credit.reason}
              </li>
            ))}
          </ul>
        </>
      )}
      <h2>API 키</h2>
      <ul>
        {keys.map((k) => (
          <li>
            {k.name} <code>{k.prefix}…</code> {k.revokedAt ? "(폐기됨)" : ""}
          </li>
        ))}
      </ul>
      <h2>인증정보</h2>
      <ul>
        {credentials.map((r) => (
          <li data-credential={r.id}>
            {providerName(r.providerCode)} · {r.label ?? r.authMethod} · <CredentialStanding credential={r} />
          </li>
        ))}
      </ul>
      <h2>최근 작업</h2>
      <DataTable stacked columns={["작업", "만든 때", "기관", "상태", "인증정보", "다시 실행"]}>
        {jobs.map((j) => (
          <tr data-job={j.id}>
            <td>
              <a href={`/admin/jobs/${j.id}`}>
                <code>{j.id}</code>
              </a>
            </td>
            <td>{kst(j.createdAt)}</td>
            <td>
              {providerName(j.providerCode)} · {j.schema}
            </td>
            <td>
              <JobOutcome job={j} />
            </td>
            <td>{j.credentialId ? (labels.get(j.credentialId) ?? <code>{j.credentialId}</code>) : "-"}</td>
            <td>
              {j.status === "FAILED" && operatorMay(role, "jobs.rerun") && (
                <form method="post" action={`/admin/jobs/${j.id}/rerun`}>
                  <CsrfField token={csrf} />
                  <input type="hidden" name="workspaceId" value={w.id} />
                  <ReasonField id={`rerun-${j.id}`} />
                  <button type="submit">다시 실행</button>
                </form>
              )}
            </td>
          </tr>
        ))}
      </DataTable>
    </AdminPage>,
  );
}

export async function suspensionForm(c: AdminPageContext<"id" | "direction">): Promise<Response> {
  const id = c.req.valid("param").id;
  const direction = c.req.valid("param").direction;
  return answerForm(c, `/admin/workspaces/${id}`, async () => {
    if (direction !== "suspend" && direction !== "restore") throw new ApiError("ACTION_NOT_FOUND");
    const { reason } = await actionForm(c);
    await changeWorkspaceSuspension(c.env, actorOf(c), id, direction, reason);
  });
}

export async function planForm(c: AdminPageContext<"id">): Promise<Response> {
  const id = c.req.valid("param").id;
  return answerForm(c, `/admin/workspaces/${id}`, async () => {
    const { fields, reason } = await actionForm(c);
    const plan = PLANS.find((p) => p === fields.plan);
    if (!plan) throw new ApiError("INVALID_PARAM_FORMAT", { message: `요금제는 ${PLANS.join(", ")} 중 하나입니다.` });
    await changeWorkspacePlan(c.env, actorOf(c), id, plan, reason);
  });
}

export async function creditForm(c: AdminPageContext<"id">): Promise<Response> {
  const id = c.req.valid("param").id;
  return answerForm(c, `/admin/workspaces/${id}`, async () => {
    const { fields, reason } = await actionForm(c);
    const day = /^\d{4}-\d{2}-\d{2}$/.exec(fields.expiresOn ?? "")?.[0];
    if (!day) throw new ApiError("INVALID_PARAM_FORMAT", { message: "만료일은 YYYY-MM-DD입니다." });
    // The day's end in Korea, where the partner reads "until the 30th".
    await grantUsageCredit(c.env, actorOf(c), id, { amount: Number(fields.amount), expiresAt: Date.parse(kstIso(`${day}T23:59:59.999`)), reason }, (fields.code ?? "").slice(0, 6));
  });
}

export async function rerunForm(c: AdminPageContext<"id">): Promise<Response> {
  const fields = await c.req.parseBody();
  const workspaceId = typeof fields.workspaceId === "string" && /^[0-9a-f-]{36}$/.test(fields.workspaceId) ? fields.workspaceId : "";
  return answerForm(c, workspaceId ? `/admin/workspaces/${workspaceId}` : "/admin", async () => {
    const { reason } = await actionForm(c);
    await rerunFailedJob(c.env, actorOf(c), c.req.valid("param").id, reason);
  });
}
