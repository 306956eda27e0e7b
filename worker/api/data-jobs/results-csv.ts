import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import type { ApiEnv } from "../context";
import { resultUnits } from "../../domain/jobs/results-rows";
import { resultsDownload } from "../../domain/results/download";
import { CSV_RESULTS_RESPONSE, JobIdParamSchema } from "./shapes";
import { errorResponses } from "../../platform/http/error-responses";
import { loadJob } from "./load-job";
import { businessScoped } from "../guards";

export const route = businessScoped(createRoute({
  method: "get",
  path: "/data-jobs/{id}/results.csv",
  operationId: "getDataJobResultsCsv",
  tags: ["Data jobs"],
  summary: "결과 (CSV)",
  description: "작업의 결과를 CSV 파일로 내려받습니다. Excel에서 열 파일은 GET /api/v1/data-jobs/{id}/results.xlsx입니다. API 키 없이 내려받을 링크는 POST /api/v1/data-jobs/{id}/download-links로 만듭니다.",
  request: { params: JobIdParamSchema },
  responses: {
    200: CSV_RESULTS_RESPONSE,
    ...errorResponses("DATA_JOB_NOT_FOUND", "DATA_JOB_RESULTS_DELETED"),
  },
}));

export const handler: RouteHandler<typeof route, ApiEnv> = async (c) => {
  const job = await loadJob(c, c.req.valid("param").id);
  return resultsDownload(c, c.env.RESULTS, job, await resultUnits(c.env.DB, job), "csv");
};
