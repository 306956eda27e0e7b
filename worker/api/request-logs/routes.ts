import type { OpenAPIHono } from "@hono/zod-openapi";
import type { ApiEnv } from "../context";
import * as listRequestLogs from "./list";
import * as getRequestLog from "./get";

/** The workspace's log of its API keys' requests (api/request-log.ts writes it). */
export function registerRequestLogRoutes(api: OpenAPIHono<ApiEnv>): void {
  api.openapi(listRequestLogs.route, listRequestLogs.handler);
  api.openapi(getRequestLog.route, getRequestLog.handler);
}
