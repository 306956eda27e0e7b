import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import { type ApiEnv, principalOf } from "../context";
import { errorResponses } from "../../platform/http/error-responses";
import type { CursorPosition } from "../../platform/database/cursor";
import { listMembers, type Member } from "../../domain/users/members";
import { paged, PageQuerySchema, pageSchema } from "../../platform/http/paging";
import { MemberSchema, memberView } from "./shapes";
import { managing } from "../guards";

export const route = managing("members.manage", createRoute({
  method: "get",
  path: "/workspace/members",
  operationId: "listWorkspaceMembers",
  tags: ["Workspace members"],
  summary: "워크스페이스 구성원 목록",
  description: "확장 API. 콘솔에 로그인하는 사람들과 각자의 역할입니다. 관리 권한(canManageKeys)이 있는 키만 부를 수 있고, 없으면 403 ADMIN_ACTION_FORBIDDEN입니다 (docs/teams.md).",
  request: { query: PageQuerySchema },
  responses: {
    200: { description: "구성원 한 페이지, 최근에 들어온 사람부터", content: { "application/json": { schema: pageSchema(MemberSchema, "WorkspaceMemberPage") } } },
    ...errorResponses("ADMIN_ACTION_FORBIDDEN", "INVALID_CURSOR", "INVALID_PARAM_FORMAT"),
  },
}));

export const handler: RouteHandler<typeof route, ApiEnv> = async (c) => {
  const { workspaceId } = principalOf(c);
  const query = c.req.valid("query");
  const page = await paged<Member & CursorPosition, ReturnType<typeof memberView>>(
    c.env.CURSOR_SECRET,
    JSON.stringify(["workspace-members", workspaceId]),
    query,
    async (after) => (await listMembers(c.env.DB, workspaceId, { limit: query.limit, after })).map((m) => ({ ...m, createdAt: m.joinedAt, id: m.userId })),
    memberView,
  );
  return c.json(page, 200);
};
