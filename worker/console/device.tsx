import type { Context } from "hono";
import { verifiedForm } from "../domain/console-sessions/csrf";
import { DEVICE_KEY_TTL_DAYS, decideUserCode, type PendingDevice, pendingDevice, DEVICE_CODE_PAGE } from "../domain/device-codes/store";
import { type ConsoleEnv, consoleUserOf } from "./context";
import { ApiError } from "../platform/errors/api-error";
import { memberships, requireMembership } from "../domain/users/members";
import { workspaceNames } from "../domain/workspaces/store";
import { kst } from "../web/kst";
import { CsrfField, ErrorAlert, Page } from "../web/layout";

type Shown = { userCode?: string; pending?: PendingDevice; error?: ApiError; decided?: { approved: boolean; clientName: string; workspaceName?: string } };

/** The code the command line shows, asked for first; the request is shown only for a code that is pending. */
function CodeForm(props: { userCode?: string }) {
  return (
    <form method="get" action={DEVICE_CODE_PAGE}>
      <label for="user_code">명령줄에 표시된 코드</label>
      <input id="user_code" name="user_code" required maxlength={20} autocomplete="off" autocapitalize="characters" placeholder="XXXX-XXXX" value={props.userCode ?? ""} />
      <button type="submit">확인</button>
    </form>
  );
}

/**
 * What asks, before anyone approves it: the code to compare with the command line's (a link someone else sent
 * carries theirs: RFC 8628 §5.4), the client's name and platform as its request gave them, when it asked, the
 * workspace it will act in and what its key may do. Approve, or Deny in the danger colour; Deny answers the client
 * access_denied.
 */
async function devicePage(c: Context<ConsoleEnv>, shown: Shown = {}) {
  const user = consoleUserOf(c);
  const own = await memberships(c.env.DB, user.userId);
  const names = await workspaceNames(c.env.DB, own.map((m) => m.workspaceId));
  const { pending, decided } = shown;
  return c.html(
    <Page title="명령줄 로그인 승인">
      <p>
        <a href="/console">← 콘솔</a>
      </p>
      <ErrorAlert error={shown.error} />
      {decided ? (
        <p class="notice" role="status" id="device-decided" data-approved={String(decided.approved)}>
          {decided.approved
            ? `${decided.clientName}을(를) ${decided.workspaceName}에 연결했습니다. 명령줄 화면으로 돌아가세요. 발급된 키는 API 키 화면에서 폐기할 수 있습니다.`
            : `${decided.clientName}의 로그인을 거부했습니다. 명령줄은 키를 받지 못합니다.`}
        </p>
      ) : pending ? (
        <form method="post" action={DEVICE_CODE_PAGE}>
          <CsrfField token={user.csrf} />
          <input type="hidden" name="user_code" value={shown.userCode} />
          <dl id="device-request">
            <dt>코드</dt>
            <dd>
              <strong style="font-family:ui-monospace,monospace;font-size:1.75rem;letter-spacing:.15em" id="device-user-code">{pending.userCode}</strong>
            </dd>
            <dt>클라이언트</dt>
            <dd id="device-client">{pending.clientName}</dd>
            <dt>환경</dt>
            <dd id="device-platform">{pending.platform ?? "알리지 않음"}</dd>
            <dt>요청 시각</dt>
            <dd id="device-asked-at">{kst(pending.createdAt)}</dd>
            <dt>받을 권한</dt>
            <dd id="device-rights">
              선택한 워크스페이스의 새 API 키: 작업 만들기와 조회, 결과 내려받기. API 키·연결·웹훅 관리 권한은 없습니다. {DEVICE_KEY_TTL_DAYS}일 뒤 만료되며, 그 전에 API 키 화면에서 폐기할 수 있습니다.
            </dd>
          </dl>
          <label for="workspaceId">키를 받을 워크스페이스</label>
          <select id="workspaceId" name="workspaceId" required>
            {own.map((m) => (
              <option value={m.workspaceId}>{names.get(m.workspaceId) ?? m.workspaceId}</option>
            ))}
          </select>
          <p>이 코드가 명령줄에 표시된 코드와 같은지 확인하세요. 다르거나 직접 시작한 로그인이 아니면 거부하세요.</p>
          <button type="submit" name="decision" value="approve">
            승인
          </button>{" "}
          <button type="submit" name="decision" value="deny" class="danger">
            거부
          </button>
        </form>
      ) : (
        <CodeForm userCode={shown.userCode} />
      )}
    </Page>,
    (shown.error?.status ?? 200) as 200,
  );
}

export async function showDevice(c: Context<ConsoleEnv>): Promise<Response> {
  const userCode = c.req.query("user_code")?.slice(0, 20);
  if (!userCode) return devicePage(c);
  try {
    return await devicePage(c, { userCode, pending: await pendingDevice(c.env.DB, userCode) });
  } catch (err) {
    if (err instanceof ApiError) return devicePage(c, { userCode, error: err });
    throw err;
  }
}

export async function decideDevice(c: Context<ConsoleEnv>): Promise<Response> {
  const user = consoleUserOf(c);
  const fields = await verifiedForm(c, user.sessionToken);
  const userCode = (fields.user_code ?? "").slice(0, 20);
  const workspaceId = fields.workspaceId ?? "";
  try {
    if (fields.decision !== "approve" && fields.decision !== "deny") throw new ApiError("INVALID_PARAM_FORMAT", { message: "승인 또는 거부를 골라 주세요." });
    if (fields.decision === "deny") {
      const { clientName } = await decideUserCode(c.env.DB, { userCode, userId: user.userId, decision: { approve: false } });
      return devicePage(c, { decided: { approved: false, clientName } });
    }
    await requireMembership(c.env.DB, user.userId, workspaceId);
    const { clientName } = await decideUserCode(c.env.DB, { userCode, userId: user.userId, decision: { approve: true, workspaceId } });
    const workspaceName = (await workspaceNames(c.env.DB, [workspaceId])).get(workspaceId) ?? workspaceId;
    return devicePage(c, { decided: { approved: true, clientName, workspaceName } });
  } catch (err) {
    if (err instanceof ApiError) return devicePage(c, { userCode, error: err });
    throw err;
  }
}
