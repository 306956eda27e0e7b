import type { Context } from "hono";
import { verifiedForm } from "../domain/console-sessions/csrf";
import { type ConsoleContext, type ConsoleEnv, consoleUserOf } from "./context";
import { memberships, removeMember } from "../domain/users/members";
import { workspaceNames } from "../domain/workspaces/store";
import { type FormOutcome, onPage } from "../web/form-outcome";
import { CsrfField, Outcome, Page } from "../web/layout";

export const WORKSPACES_PAGE = "/console/workspaces";

/** Every workspace the user belongs to: open one, or leave it (the last owner cannot: domain/users/members.ts). */
async function workspacesPage(c: Context<ConsoleEnv>, shown: FormOutcome = {}) {
  const user = consoleUserOf(c);
  const mine = await memberships(c.env.DB, user.userId);
  const names = await workspaceNames(c.env.DB, mine.map((m) => m.workspaceId));
  return c.html(
    <Page title="워크스페이스">
      <Outcome shown={shown} />
      <ul class="workspaces">
        {mine.map((m) => (
          <li data-workspace-id={m.workspaceId}>
            <a href={`/console/w/${m.workspaceId}/jobs`}>{names.get(m.workspaceId) ?? m.workspaceId}</a> ({m.role === "owner" ? "소유자" : "구성원"})
            <form method="post" action={`/console/w/${m.workspaceId}/leave`} style="display:inline">
              <CsrfField token={user.csrf} />
              <button type="submit" class="danger" aria-label={`${names.get(m.workspaceId) ?? ""} 워크스페이스에서 나가기`}>
                나가기
              </button>
            </form>
          </li>
        ))}
      </ul>
      {mine.length === 0 && <p>속한 워크스페이스가 없습니다. 워크스페이스 소유자에게 초대를 요청해 주세요.</p>}
    </Page>,
    shown.error ? (shown.error.status as 400) : 200,
  );
}

export const showWorkspaces = (c: Context<ConsoleEnv>) => workspacesPage(c);

export async function leaveWorkspaceForm(c: ConsoleContext<"workspaceId">): Promise<Response> {
  const user = consoleUserOf(c);
  await verifiedForm(c, user.sessionToken);
  return onPage(c, workspacesPage, async () => {
    await removeMember(c.env, c.req.valid("param").workspaceId, user.userId);
    return "워크스페이스에서 나왔습니다.";
  });
}
