import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../../env";
import * as rerunJob from "./rerun";

/** Running a failed job again. */
export function registerJobRoutes(api: OpenAPIHono<AppEnv>): void {
  api.openapi(rerunJob.route, rerunJob.handler);
}
