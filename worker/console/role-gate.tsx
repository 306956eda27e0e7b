import type { Next } from "hono";
import { type Action, requireRole } from "../domain/workspaces/roles";
import { type ConsoleContext, workspaceRoleOf } from "./context";

/**
 * Every workspace page and form names its action (console/routes.ts); a role that may not do it
 * (domain/workspaces/roles.ts, the table the API's managing routes check too) is refused before the form is read, so
 * nothing changes. The refusal is the console's 403 page (console/error-pages.tsx), as every page's refusal is.
 */
export const consoleMay = (action: Action) =>
  async (c: ConsoleContext<"workspaceId">, next: Next) => {
    requireRole(workspaceRoleOf(c), action);
    await next();
  };
