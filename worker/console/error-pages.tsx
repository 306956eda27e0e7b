import type { Context } from "hono";
import type { Child } from "hono/jsx";
import type { ConsoleEnv } from "./context";
import { Page } from "../web/layout";
import { type WayBack, notFoundAsPage } from "../web/not-found-page";
import { workspacePageOf, WorkspaceNav } from "./workspace-nav";
import { WORKSPACES_PAGE } from "./workspaces";

/**
 * Where a stale console link sends its person: the workspace's page its path is under, named as the menu names it
 * (a job's page to 수집 작업, an invoice's to 결제), else their workspaces.
 */
function wayBack(c: Context<ConsoleEnv>): WayBack {
  const [, , inWorkspace, workspaceId, section] = c.req.path.split("/");
  if (inWorkspace !== "w" || !c.get("workspaceRole")) return { href: WORKSPACES_PAGE, text: "워크스페이스 목록으로 돌아가기" };
  const page = workspacePageOf(section) ?? workspacePageOf("jobs")!;
  return { href: `/console/w/${workspaceId}/${page.path}`, text: `${page.text} 페이지로 돌아가기` };
}

/** The console's not-found page, with the workspace's menu when the path's workspace is the signed-in member's. */
function layout(c: Context<ConsoleEnv>, body: Child, title: string): Response | Promise<Response> {
  const user = c.get("consoleUser");
  const role = c.get("workspaceRole");
  const workspaceId = c.req.path.split("/")[3];
  const nav = user && role && workspaceId ? <WorkspaceNav workspaceId={workspaceId} user={user} role={role} /> : undefined;
  return c.html(
    <Page title={title} nav={nav}>
      {body}
    </Page>,
    404,
  );
}

/** A console path or row that is not there is a page, not the JSON envelope (web/not-found-page.tsx). */
export const consoleNotFound = notFoundAsPage<ConsoleEnv>(wayBack, layout, "링크가 오래되었거나, 가리키던 것이 지워졌거나, 다른 워크스페이스의 것일 수 있습니다.");
