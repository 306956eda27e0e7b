import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import * as downloadJobCsv from "./download";

/** Downloading by a link's token; links are made among a job's routes (api/data-jobs/routes.ts). */
export function registerDownloadLinkRoutes(api: OpenAPIHono<AppEnv>): void {
  api.openapi(downloadJobCsv.route, downloadJobCsv.handler);
}
