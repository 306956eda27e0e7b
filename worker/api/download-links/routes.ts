import type { OpenAPIHono } from "@hono/zod-openapi";
import type { ApiEnv } from "../context";
import * as downloadJobCsv from "./download";

/** Downloading by a link's token; links are made among a job's routes (api/data-jobs/routes.ts). */
export function registerDownloadLinkRoutes(api: OpenAPIHono<ApiEnv>): void {
  api.openapi(downloadJobCsv.route, downloadJobCsv.handler);
}
