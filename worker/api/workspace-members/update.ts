import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import { type ApiEnv, principalOf } from "../context";
import { errorResponses } from "../../platform/http/error-responses";
import { jsonBody } from "../../platform/http/json-body";
import { changeRole } from "../../domain/users/members";
import { MemberSchema, memberView, UserIdParamSchema } from "./shapes";
import { UpdateMemberBodySchema } from "../../domain/users/inputs";
import { managing } from "../guards";

export const route = managing("members.manage", createRoute({
  method: "patch",
  path: "/workspace/members/{userId}",
  operationId: "updateWorkspaceMember",
  tags: ["Workspace members"],
  summary: "구성원 역할 변경",
  description:
    "확장 API. owner로 올리면 소유권을 나눠 갖고, member로 내리면 관리 권한을 잃으며 그 사람이 만든 관리 권한 키(canManageKeys, 그 키로 만든 관리 키 포함)도 함께 폐기됩니다. 마지막 소유자는 member가 될 수 없어 403 ADMIN_ACTION_FORBIDDEN입니다 (먼저 다른 사람을 owner로). 구성원이 아닌 userId는 404 WORKSPACE_MEMBER_NOT_FOUND입니다.",
  request: { params: UserIdParamSchema, ...jsonBody(UpdateMemberBodySchema) },
  responses: {
    200: { description: "바뀐 구성원", content: { "application/json": { schema: MemberSchema } } },
    ...errorResponses("WORKSPACE_MEMBER_NOT_FOUND", "ADMIN_ACTION_FORBIDDEN", "MISSING_REQUIRED_PARAM", "INVALID_PARAM_FORMAT"),
  },
}));

export const handler: RouteHandler<typeof route, ApiEnv> = async (c) => {
  const member = await changeRole(c.env, principalOf(c).workspaceId, c.req.valid("param").userId, c.req.valid("json").role);
  return c.json(memberView(member), 200);
};
