import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AdminApiEnv } from "../../context";
import * as getJob from "./get";
import * as rerunJob from "./rerun";

/** Reading a job, and running a failed one again. */
export function registerJobRoutes(api: OpenAPIHono<AdminApiEnv>): void {
  api.openapi(getJob.route, getJob.handler);
  api.openapi(rerunJob.route, rerunJob.handler);
}
