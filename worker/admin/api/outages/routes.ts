import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AdminApiEnv } from "../../context";
import * as listOutages from "./list";
import * as announceOutage from "./create";
import * as withdrawOutage from "./withdraw";

/** Institutions' outages and maintenance, as operators announce them. */
export function registerOutageRoutes(api: OpenAPIHono<AdminApiEnv>): void {
  api.openapi(listOutages.route, listOutages.handler);
  api.openapi(announceOutage.route, announceOutage.handler);
  api.openapi(withdrawOutage.route, withdrawOutage.handler);
}
