import type { OpenAPIHono } from "@hono/zod-openapi";
import type { ApiEnv } from "../context";
import * as listWorkspaceMembers from "./list";
import * as updateWorkspaceMember from "./update";
import * as removeWorkspaceMember from "./remove";

/** The people of the key's own workspace: owners' business, as in the console. */
export function registerWorkspaceMemberRoutes(api: OpenAPIHono<ApiEnv>): void {
  api.openapi(listWorkspaceMembers.route, listWorkspaceMembers.handler);
  api.openapi(updateWorkspaceMember.route, updateWorkspaceMember.handler);
  api.openapi(removeWorkspaceMember.route, removeWorkspaceMember.handler);
}
