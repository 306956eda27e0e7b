import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import { type ApiEnv, principalOf } from "../context";
import { errorResponses } from "../../platform/http/error-responses";
import { pendingInvitations } from "../../domain/users/invitations";
import { paged, PageQuerySchema, pageSchema } from "../../platform/http/paging";
import { InvitationSchema, invitationView } from "./shapes";
import { managing } from "../guards";

export const route = managing("members.manage", createRoute({
  method: "get",
  path: "/workspace/members/invitations",
  operationId: "listWorkspaceInvitations",
  tags: ["Workspace members"],
  summary: "대기 중인 초대 목록",
  description: "확장 API. 아직 수락·취소되지 않았고 만료되지 않은 초대입니다.",
  request: { query: PageQuerySchema },
  responses: {
    200: { description: "초대 한 페이지, 최근 것부터", content: { "application/json": { schema: pageSchema(InvitationSchema, "WorkspaceInvitationPage") } } },
    ...errorResponses("ADMIN_ACTION_FORBIDDEN", "INVALID_CURSOR", "INVALID_PARAM_FORMAT"),
  },
}));

export const handler: RouteHandler<typeof route, ApiEnv> = async (c) => {
  const { workspaceId } = principalOf(c);
  const query = c.req.valid("query");
  const page = await paged(c.env.CURSOR_SECRET, JSON.stringify(["workspace-invitations", workspaceId]), query, (after) => pendingInvitations(c.env.DB, workspaceId, { limit: query.limit, after }), invitationView);
  return c.json(page, 200);
};
