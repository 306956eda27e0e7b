import type { Next } from "hono";
import { ApiError } from "../platform/errors/api-error";
import { type Action, requireRole } from "../domain/workspaces/roles";
import { ErrorAlert, Page } from "../web/layout";
import { type ConsoleContext, consoleUserOf, workspaceRoleOf } from "./context";
import { WorkspaceNav } from "./workspace-nav";

/** The page a refused member sees instead of the page or form's answer: the catalog code and why, HTTP 403. */
function refusedPage(c: ConsoleContext<"workspaceId">, error: ApiError): Response | Promise<Response> {
  const workspaceId = c.req.valid("param").workspaceId;
  return c.html(
    <Page title="권한이 없습니다" nav={<WorkspaceNav workspaceId={workspaceId} user={consoleUserOf(c)} role={workspaceRoleOf(c)} />}>
      <ErrorAlert error={error} />
      <p>
        <a href={`/console/w/${workspaceId}/jobs`}>수집 작업으로 돌아가기</a>
      </p>
    </Page>,
    error.status as 403,
  );
}

/**
 * Every workspace page and form names its action (console/routes.ts); a role that may not do it
 * (domain/workspaces/roles.ts, the table the API's managing routes check too) gets the refusal page before
 * the form is read, so nothing changes.
 */
export const consoleMay = (action: Action) =>
  async (c: ConsoleContext<"workspaceId">, next: Next) => {
    try {
      requireRole(workspaceRoleOf(c), action);
    } catch (err) {
      if (err instanceof ApiError) return refusedPage(c, err);
      throw err;
    }
    await next();
  };
