import type { OpenAPIHono } from "@hono/zod-openapi";
import type { ApiEnv } from "../context";
import * as getResultsRetention from "./get";
import * as updateResultsRetention from "./update";

/** How long the workspace keeps its finished jobs' results (docs/retention.md). */
export function registerResultsRetentionRoutes(api: OpenAPIHono<ApiEnv>): void {
  api.openapi(getResultsRetention.route, getResultsRetention.handler);
  api.openapi(updateResultsRetention.route, updateResultsRetention.handler);
}
