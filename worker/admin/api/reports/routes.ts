import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AdminApiEnv } from "../../context";
import * as listReports from "./list";
import * as getReport from "./get";
import * as closeReport from "./close";

/** Scraper failure reports: adapters' unreadable pages, read and closed once the adapter is fixed. */
export function registerReportRoutes(api: OpenAPIHono<AdminApiEnv>): void {
  api.openapi(listReports.route, listReports.handler);
  api.openapi(getReport.route, getReport.handler);
  api.openapi(closeReport.route, closeReport.handler);
}
