import type { OpenAPIHono } from "@hono/zod-openapi";
import type { ApiEnv } from "../context";
import * as createDataJob from "./create";
import * as listDataJobs from "./list";
import * as getDataJob from "./get";
import * as getResults from "./results";
import * as getResultsCsv from "./results-csv";
import * as getResultsXlsx from "./results-xlsx";
import * as deleteResults from "./delete-results";
import * as createDownloadLink from "../download-links/create";

/**
 * A business's data jobs and their results. Making a job's download link (POST /data-jobs/{id}/download-links) is one of
 * the job's routes; downloading by the link's token is registered after the schedules (api/download-links/routes.ts).
 */
export function registerDataJobRoutes(api: OpenAPIHono<ApiEnv>): void {
  api.openapi(createDataJob.route, createDataJob.handler);
  api.openapi(listDataJobs.route, listDataJobs.handler);
  api.openapi(getDataJob.route, getDataJob.handler);
  api.openapi(getResults.route, getResults.handler);
  api.openapi(getResultsCsv.route, getResultsCsv.handler);
  api.openapi(getResultsXlsx.route, getResultsXlsx.handler);
  api.openapi(deleteResults.route, deleteResults.handler);
  api.openapi(createDownloadLink.route, createDownloadLink.handler);
}
