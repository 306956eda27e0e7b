import type { Context } from "hono";
import { verifiedForm } from "../console-sessions/csrf";
import { approveUserCode } from "../device-codes/store";
import type { AppEnv } from "../env";
import { ApiError } from "../errors/api-error";
import { memberships, requireMembership } from "../users/store";
import { workspaceNames } from "../workspaces/store";
import { DEVICE_CODE_PAGE } from "./device-page-path";
import { CsrfField, ErrorAlert, Page } from "./layout";
import { consoleUserOf } from "./signed-in";

async function devicePage(c: Context<AppEnv>, shown: { userCode?: string; error?: ApiError; approved?: { clientName: string; workspaceName: string } } = {}) {
  const user = consoleUserOf(c);
  const own = await memberships(c.env.DB, user.userId);
  const names = await workspaceNames(c.env.DB, own.map((m) => m.workspaceId));
  return c.html(
    <Page title="명령줄 로그인 승인">
      <p>
        <a href="/console">← 콘솔</a>
      </p>
      <ErrorAlert error={shown.error} />
      {shown.approved ? (
        <p class="notice" role="status" id="device-approved">
          {shown.approved.clientName}을(를) {shown.approved.workspaceName}에 연결했습니다. 명령줄 화면으로 돌아가세요. 발급된 키는 API 키 화면에서 폐기할 수 있습니다.
        </p>
      ) : (
        <form method="post" action={DEVICE_CODE_PAGE}>
          <CsrfField token={user.csrf} />
          <label for="user_code">명령줄에 표시된 코드</label>
          <input id="user_code" name="user_code" required autocomplete="off" autocapitalize="characters" placeholder="XXXX-XXXX" value={shown.userCode ?? ""} />
          <label for="workspaceId">키를 받을 워크스페이스</label>
          <select id="workspaceId" name="workspaceId" required>
            {own.map((m) => (
              <option value={m.workspaceId}>{names.get(m.workspaceId) ?? m.workspaceId}</option>
            ))}
          </select>
          <p>승인하면 이 명령줄 클라이언트가 워크스페이스의 새 API 키를 받습니다. 직접 시작한 로그인이 아니면 승인하지 마세요.</p>
          <button type="submit">승인</button>
        </form>
      )}
    </Page>,
    (shown.error?.status ?? 200) as 200,
  );
}

export const showDevice = (c: Context<AppEnv>) => devicePage(c, { userCode: c.req.query("user_code") });

export async function approveDevice(c: Context<AppEnv>): Promise<Response> {
  const user = consoleUserOf(c);
  const fields = await verifiedForm(c, user.sessionToken);
  const userCode = fields.user_code ?? "";
  const workspaceId = fields.workspaceId ?? "";
  try {
    await requireMembership(c.env.DB, user.userId, workspaceId);
    const { clientName } = await approveUserCode(c.env.DB, { userCode, userId: user.userId, workspaceId });
    const workspaceName = (await workspaceNames(c.env.DB, [workspaceId])).get(workspaceId) ?? workspaceId;
    return devicePage(c, { approved: { clientName, workspaceName } });
  } catch (err) {
    if (err instanceof ApiError) return devicePage(c, { userCode, error: err });
    throw err;
  }
}
