import type { OpenAPIHono } from "@hono/zod-openapi";
import type { ApiEnv } from "../context";
import * as createApiKey from "./create";
import * as listApiKeys from "./list";
import * as revokeApiKey from "./revoke";

/** The workspace's API keys. */
export function registerApiKeyRoutes(api: OpenAPIHono<ApiEnv>): void {
  api.openapi(createApiKey.route, createApiKey.handler);
  api.openapi(listApiKeys.route, listApiKeys.handler);
  api.openapi(revokeApiKey.route, revokeApiKey.handler);
}
