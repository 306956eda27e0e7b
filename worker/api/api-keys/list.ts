import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import { listApiKeys } from "../../domain/api-keys/store";
import { type ApiEnv, principalOf } from "../context";
import { errorResponses } from "../../platform/http/error-responses";
import { paged, PageQuerySchema, pageSchema } from "../../platform/http/paging";
import { ApiKeySchema } from "./shapes";
import { apiKeyView } from "./views";
import { managing } from "../guards";

export const route = managing("keys.manage", createRoute({
  method: "get",
  path: "/api-keys",
  operationId: "listApiKeys",
  tags: ["API keys"],
  summary: "API 키 목록",
  description: "키 관리 권한(canManageKeys)이 있는 키만 부를 수 있고, 없으면 403 ADMIN_ACTION_FORBIDDEN입니다.",
  request: { query: PageQuerySchema },
  responses: {
    200: { description: "워크스페이스의 키 한 페이지 (폐기된 키 포함), 최신 키부터", content: { "application/json": { schema: pageSchema(ApiKeySchema, "ApiKeyPage") } } },
    ...errorResponses("ADMIN_ACTION_FORBIDDEN", "INVALID_CURSOR", "INVALID_PARAM_FORMAT"),
  },
}));

export const handler: RouteHandler<typeof route, ApiEnv> = async (c) => {
  const { workspaceId } = principalOf(c);
  const query = c.req.valid("query");
  const page = await paged(c.env.CURSOR_SECRET, JSON.stringify(["api-keys", workspaceId]), query, (after) => listApiKeys(c.env.DB, workspaceId, { limit: query.limit, after }), apiKeyView);
  return c.json(page, 200);
};
