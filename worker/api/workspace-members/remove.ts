import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import { type ApiEnv, principalOf } from "../context";
import { errorResponses } from "../../platform/http/error-responses";
import { removeMember } from "../../domain/users/members";
import { UserIdParamSchema } from "./shapes";
import { managing } from "../guards";

export const route = managing("members.manage", createRoute({
  method: "delete",
  path: "/workspace/members/{userId}",
  operationId: "removeWorkspaceMember",
  tags: ["Workspace members"],
  summary: "구성원 내보내기",
  description:
    "확장 API. 그 사람은 곧바로 이 워크스페이스의 콘솔을 쓸 수 없고, 그 사람이 명령줄 로그인으로 받은 키와 그 사람이 만든 관리 권한 키(canManageKeys, 그 키로 만든 관리 키 포함)도 함께 폐기됩니다. 워크스페이스의 데이터 키는 그대로입니다. 마지막 소유자는 내보낼 수 없어 403 ADMIN_ACTION_FORBIDDEN, 구성원이 아니면 404 WORKSPACE_MEMBER_NOT_FOUND입니다.",
  request: { params: UserIdParamSchema },
  responses: {
    204: { description: "내보냈습니다" },
    ...errorResponses("WORKSPACE_MEMBER_NOT_FOUND", "ADMIN_ACTION_FORBIDDEN"),
  },
}));

export const handler: RouteHandler<typeof route, ApiEnv> = async (c) => {
  await removeMember(c.env, principalOf(c).workspaceId, c.req.valid("param").userId);
  return c.body(null, 204);
};
