import { revokeKey } from "../domain/api-keys/revoke";
import { type IssuedKey, listApiKeys } from "../domain/api-keys/store";
import { issuePersonsKey } from "../domain/users/issued-keys";
import { verifiedForm } from "../domain/console-sessions/csrf";
import { type ConsoleContext, consoleUserOf, workspaceRoleOf } from "./context";
import { roleMay } from "../domain/workspaces/roles";
import { ApiError } from "../platform/errors/api-error";
import { kst } from "../web/kst";
import { CsrfField, DataTable, ErrorAlert, Page } from "../web/layout";
import { WorkspaceNav } from "./workspace-nav";

async function keysPage(c: ConsoleContext<"workspaceId">, shown: { issued?: IssuedKey; error?: ApiError; revoked?: boolean } = {}) {
  const user = consoleUserOf(c);
  const workspaceId = c.req.valid("param").workspaceId;
  const keys = await listApiKeys(c.env.DB, workspaceId);
  const base = `/console/w/${workspaceId}/keys`;
  return c.html(
    <Page title="API 키" nav={<WorkspaceNav workspaceId={workspaceId} user={user} role={workspaceRoleOf(c)} />}>
      <ErrorAlert error={shown.error} />
      {shown.issued && (
        <div class="notice" role="status">
          <p>
            새 키 <strong>{shown.issued.row.name}</strong>가 발급되었습니다. 이 값은 지금 한 번만 보입니다. 안전한 곳에 복사해 두세요.
          </p>
          <p>
            <code id="issued-secret">{shown.issued.secret}</code>
          </p>
        </div>
      )}
      {shown.revoked && (
        <p class="notice" role="status">
          키를 폐기했습니다. 이 키로 보낸 요청은 곧바로 401 INVALID_TOKEN이 됩니다.
        </p>
      )}
      <h2>새 키 발급</h2>
      <form method="post" action={base}>
        <CsrfField token={user.csrf} />
        <label for="name">키 이름</label>
        <input id="name" name="name" maxlength={100} required placeholder="예: 운영 서버" />
        <label for="canManageKeys" style="font-weight:normal">
          <input id="canManageKeys" name="canManageKeys" type="checkbox" value="1" style="width:auto" /> 관리 권한 부여: 이 키로 API 키, 자격 증명, 파트너 연결, 웹훅을 관리합니다 (소유자와 같은 권한). 데이터 수집만 하는 서버에는 주지 마세요.
        </label>
        <button type="submit">발급</button>
      </form>
      <h2>발급된 키</h2>
      <DataTable columns={["이름", "앞자리", "발급", "상태", { hidden: "폐기" }]}>
        {keys.map((key) => (
          <tr data-key-id={key.id}>
            <td>
              {key.name}
              {key.deviceIssued ? " (명령줄 로그인으로 발급)" : ""}
              {key.canManageKeys ? " (관리 권한)" : ""}
            </td>
            <td>
              <code>{key.prefix}…</code>
            </td>
            <td>{kst(key.createdAt)}</td>
            <td>
              {key.revokedAt !== null
                ? `폐기됨 (${kst(key.revokedAt)})`
                : key.expiresAt !== null && key.expiresAt <= Date.now()
                  ? "만료됨"
                  : key.expiresAt !== null
                    ? `사용 중 (${kst(key.expiresAt)} 만료)`
                    : "사용 중"}
            </td>
            <td>
              {key.revokedAt === null && (
                <form method="post" action={`${base}/${key.id}/revoke`}>
                  <CsrfField token={user.csrf} />
                  <button type="submit" class="danger" aria-label={`${key.name} 키 폐기`}>
                    폐기
                  </button>
                </form>
              )}
            </td>
          </tr>
        ))}
      </DataTable>
    </Page>,
    shown.issued ? 201 : ((shown.error?.status ?? 200) as 200),
  );
}

export const showKeys = (c: ConsoleContext<"workspaceId">) => keysPage(c);

/**
 * Keys issued here are data keys (a member's rights, domain/workspaces/roles.ts)
 * unless the owner ticks the managing right: only owners reach this form, so
 * a managing key is always an owner's delegation, and a leaked data key
 * cannot mint successors. The owner is recorded as the key's issuer: their
 * managing keys go when they leave or stop owning the workspace.
 */
export async function createKey(c: ConsoleContext<"workspaceId">): Promise<Response> {
  const fields = await verifiedForm(c, consoleUserOf(c).sessionToken);
  const name = fields.name?.trim() ?? "";
  if (!name || name.length > 100) return keysPage(c, { error: new ApiError("INVALID_PARAM_FORMAT", { message: "키 이름을 1-100자로 입력해 주세요." }) });
  const canManageKeys = fields.canManageKeys === "1" && roleMay(workspaceRoleOf(c), "keys.manage");
  try {
    const issued = await issuePersonsKey(c.env, { workspaceId: c.req.valid("param").workspaceId, name, canManageKeys, issuedByUserId: consoleUserOf(c).userId });
    return keysPage(c, { issued });
  } catch (err) {
    if (err instanceof ApiError) return keysPage(c, { error: err });
    throw err;
  }
}

export async function revokeKeyForm(c: ConsoleContext<"workspaceId" | "keyId">): Promise<Response> {
  const user = consoleUserOf(c);
  await verifiedForm(c, user.sessionToken);
  const workspaceId = c.req.valid("param").workspaceId;
  const outcome = await revokeKey(c.env, workspaceId, c.req.valid("param").keyId);
  if (outcome === "NOT_FOUND") return keysPage(c, { error: new ApiError("API_KEY_NOT_FOUND") });
  if (outcome === "ALREADY_REVOKED") return keysPage(c, { error: new ApiError("API_KEY_ALREADY_REVOKED") });
  return keysPage(c, { revoked: true });
}
