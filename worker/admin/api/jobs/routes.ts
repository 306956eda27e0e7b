import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AdminApiEnv } from "../../context";
import * as rerunJob from "./rerun";

/** Running a failed job again. */
export function registerJobRoutes(api: OpenAPIHono<AdminApiEnv>): void {
  api.openapi(rerunJob.route, rerunJob.handler);
}
