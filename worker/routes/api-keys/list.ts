import { createRoute, type RouteHandler, z } from "@hono/zod-openapi";
import { listApiKeys } from "../../api-keys/store";
import type { AppEnv } from "../../env";
import { errorResponses } from "../../http/error-responses";
import { principalOf } from "../principal";
import { ApiKeySchema } from "./shapes";
import { apiKeyView } from "./views";

export const route = createRoute({
  method: "get",
  path: "/api-keys",
  operationId: "listApiKeys",
  tags: ["API keys"],
  summary: "API 키 목록",
  description: "키 관리 권한(canManageKeys)이 있는 키만 부를 수 있고, 없으면 403 ADMIN_ACTION_FORBIDDEN입니다.",
  responses: {
    200: { description: "워크스페이스의 키 (폐기된 키 포함)", content: { "application/json": { schema: z.object({ items: z.array(ApiKeySchema) }) } } },
    ...errorResponses("ADMIN_ACTION_FORBIDDEN"),
  },
});

export const handler: RouteHandler<typeof route, AppEnv> = async (c) =>
  c.json({ items: (await listApiKeys(c.env.DB, principalOf(c).workspaceId)).map(apiKeyView) }, 200);
