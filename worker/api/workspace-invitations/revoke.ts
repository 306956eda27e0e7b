import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import { type ApiEnv, principalOf } from "../context";
import { errorResponses } from "../../platform/http/error-responses";
import { revokeInvitation } from "../../domain/users/invitations";
import { InvitationIdParamSchema } from "./shapes";
import { managing } from "../guards";

export const route = managing("members.manage", createRoute({
  method: "delete",
  path: "/workspace/members/invitations/{id}",
  operationId: "revokeWorkspaceInvitation",
  tags: ["Workspace members"],
  summary: "초대 취소",
  description: "확장 API. 링크는 곧바로 쓰이지 않습니다. 대기 중인 초대가 아니면(없거나, 이미 수락·취소·만료) 404 RESOURCE_NOT_FOUND입니다.",
  request: { params: InvitationIdParamSchema },
  responses: {
    204: { description: "취소했습니다" },
    ...errorResponses("RESOURCE_NOT_FOUND", "ADMIN_ACTION_FORBIDDEN"),
  },
}));

export const handler: RouteHandler<typeof route, ApiEnv> = async (c) => {
  await revokeInvitation(c.env.DB, principalOf(c).workspaceId, c.req.valid("param").id);
  return c.body(null, 204);
};
