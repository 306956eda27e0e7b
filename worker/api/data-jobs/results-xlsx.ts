import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import type { ApiEnv } from "../context";
import { resultUnits } from "../../domain/jobs/results-rows";
import { resultsDownload } from "../../domain/results/download";
import { JobIdParamSchema, XLSX_RESULTS_RESPONSE } from "./shapes";
import { errorResponses } from "../../platform/http/error-responses";
import { loadJob } from "./load-job";
import { businessScoped } from "../guards";

// Beside results.csv, not instead of it: the spec's CSV stays byte for byte what it is; this is the file Excel opens typed.
export const route = businessScoped(createRoute({
  method: "get",
  path: "/data-jobs/{id}/results.xlsx",
  operationId: "getDataJobResultsXlsx",
  tags: ["Data jobs"],
  summary: "결과 (Excel)",
  description:
    "작업의 결과를 Excel 파일(.xlsx)로 내려받습니다. 열과 머리글은 results.csv와 같고, 승인번호·계좌번호는 텍스트, 금액은 숫자, 날짜는 날짜 셀이라 Excel에서 앞자리 0이 사라지거나 지수 표기(1.1E+11)로 바뀌지 않습니다. 진행 중인 작업은 끝난 작업 단위까지의 부분 결과입니다. API 키 없이 내려받을 링크는 POST /api/v1/data-jobs/{id}/download-links에 format: xlsx로 만듭니다.",
  request: { params: JobIdParamSchema },
  responses: {
    200: XLSX_RESULTS_RESPONSE,
    ...errorResponses("DATA_JOB_NOT_FOUND", "DATA_JOB_RESULTS_DELETED"),
  },
}));

export const handler: RouteHandler<typeof route, ApiEnv> = async (c) => {
  const job = await loadJob(c, c.req.valid("param").id);
  return resultsDownload(c, c.env.RESULTS, job, await resultUnits(c.env.DB, job), "xlsx");
};
