import type { Context } from "hono";
import type { Child } from "hono/jsx";
import type { ConsoleEnv } from "./context";
import { Page } from "../web/layout";
import { type PageStatus, type WayBack, errorsAsPages } from "../web/error-page";
import { catalogEntry } from "../platform/errors/codes";
import { workspacePageOf, WorkspaceNav } from "./workspace-nav";
import { WORKSPACES_PAGE } from "./workspaces";

const TO_WORKSPACES: WayBack = { href: WORKSPACES_PAGE, text: "워크스페이스 목록으로 돌아가기" };

/**
 * Where a stale console link sends its person: the workspace's page its path is under, named as the menu names it
 * (a job's page to 수집 작업, an invoice's to 결제), else their workspaces.
 */
function wayBack(c: Context<ConsoleEnv>): WayBack {
  const [, , inWorkspace, workspaceId, section] = c.req.path.split("/");
  if (inWorkspace !== "w" || !c.get("workspaceRole")) return TO_WORKSPACES;
  const page = workspacePageOf(section) ?? workspacePageOf("jobs")!;
  return { href: `/console/w/${workspaceId}/${page.path}`, text: `${page.text} 페이지로 돌아가기` };
}

// The catalog's wording is the membership's refusal (domain/users/members.ts); a suspended workspace says its own.
const NOT_A_MEMBER = catalogEntry("WORKSPACE_ACCESS_DENIED").message;

/** The console's error page, with the workspace's menu when the path's workspace is the signed-in member's. */
function layout(c: Context<ConsoleEnv>, body: Child, title: string, status: PageStatus): Response | Promise<Response> {
  const user = c.get("consoleUser");
  const role = c.get("workspaceRole");
  const workspaceId = c.req.path.split("/")[3];
  const nav = user && role && workspaceId ? <WorkspaceNav workspaceId={workspaceId} user={user} role={role} /> : undefined;
  return c.html(
    <Page title={title} nav={nav}>
      {body}
    </Page>,
    status,
  );
}

/**
 * A console path or row that is not there, and a workspace page the person may not open (no longer a member, or the
 * role's refusal, which names the role that may: domain/workspaces/roles.ts), are pages, not the JSON envelope
 * (web/error-page.tsx). A refused person goes back to their workspaces: the path's workspace may not be theirs.
 */
export const consoleErrorPages = errorsAsPages<ConsoleEnv>(layout, {
  404: { title: "찾을 수 없습니다", back: wayBack, why: () => "링크가 오래되었거나, 가리키던 것이 지워졌거나, 다른 워크스페이스의 것일 수 있습니다." },
  403: {
    title: "권한이 없습니다",
    back: () => TO_WORKSPACES,
    why: (envelope) =>
      envelope.code === "WORKSPACE_ACCESS_DENIED" && envelope.message === NOT_A_MEMBER
        ? "이 워크스페이스의 구성원이 아닙니다. 워크스페이스에서 나갔거나 소유자가 내보냈을 수 있습니다. 다시 들어오려면 소유자에게 초대를 요청해 주세요."
        : undefined,
  },
});
