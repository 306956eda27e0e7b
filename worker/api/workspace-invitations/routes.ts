import type { OpenAPIHono } from "@hono/zod-openapi";
import type { ApiEnv } from "../context";
import * as createWorkspaceInvitation from "./create";
import * as listWorkspaceInvitations from "./list";
import * as revokeWorkspaceInvitation from "./revoke";

/** Invitations into the key's own workspace: owners' business, as in the console. */
export function registerWorkspaceInvitationRoutes(api: OpenAPIHono<ApiEnv>): void {
  api.openapi(createWorkspaceInvitation.route, createWorkspaceInvitation.handler);
  api.openapi(listWorkspaceInvitations.route, listWorkspaceInvitations.handler);
  api.openapi(revokeWorkspaceInvitation.route, revokeWorkspaceInvitation.handler);
}
