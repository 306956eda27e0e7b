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
  responses: {
    200: { description: "워크스페이스의 키 (폐기된 키 포함)", content: { "application/json": { schema: z.object({ items: z.array(ApiKeySchema) }) } } },
    ...errorResponses(),
  },
});

export const handler: RouteHandler<typeof route, AppEnv> = async (c) =>
  c.json({ items: (await listApiKeys(c.env.DB, principalOf(c).workspaceId)).map(apiKeyView) }, 200);
