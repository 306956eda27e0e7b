import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import { openDownloadLink } from "../../domain/download-links/links";
import type { ApiEnv } from "../context";
import { errorResponses } from "../../platform/http/error-responses";
import { resultUnits } from "../../domain/jobs/results-rows";
import { resultsDownload } from "../../domain/results/download";
import { LINKED_RESULTS_RESPONSE } from "../data-jobs/shapes";
import { DownloadTokenParamSchema } from "./shapes";
import { behind } from "../../platform/http/route-fronts";

// The link's token stands in for the API key: whoever holds the link may download, so no key check and no business selection.
export const route = behind(createRoute({
  method: "get",
  path: "/download-links/{token}",
  operationId: "downloadJobCsv",
  tags: ["Data jobs"],
  summary: "다운로드 링크로 CSV·Excel 받기",
  description:
    "POST /api/v1/data-jobs/{id}/download-links가 만든 링크입니다. API 키가 필요 없고, GET /api/v1/data-jobs/{id}/results.csv와 같은 CSV를, format: xlsx로 만든 링크는 results.xlsx와 같은 Excel 파일을 내려줍니다. 요청은 클라이언트 주소별로 한도가 적용됩니다. 토큰이 한 글자라도 바뀌었거나 알 수 없으면, 또는 링크를 만든 API 키가 폐기되었으면 401 INVALID_TOKEN, 만료되었으면 401 TOKEN_EXPIRED입니다.",
  security: [],
  request: { params: DownloadTokenParamSchema },
  responses: {
    200: LINKED_RESULTS_RESPONSE,
    ...errorResponses("INVALID_TOKEN", "TOKEN_EXPIRED", "DATA_JOB_NOT_FOUND", "DATA_JOB_RESULTS_DELETED"),
  },
}));

export const handler: RouteHandler<typeof route, ApiEnv> = async (c) => {
  const { job, file } = await openDownloadLink(c.env, c.req.valid("param").token, Date.now());
  return resultsDownload(c, c.env.RESULTS, job, await resultUnits(c.env.DB, job), file);
};
