import { createRoute, type RouteHandler, z } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { csvDownload } from "../../results/csv-download";
import { JobIdParamSchema } from "./shapes";
import { errorResponses } from "../../http/error-responses";
import { loadJob } from "./load-job";

export const route = createRoute({
  method: "get",
  path: "/data-jobs/{id}/results.csv",
  operationId: "getDataJobResultsCsv",
  tags: ["Data jobs"],
  summary: "결과 (CSV)",
  description:
    "UTF-8(BOM 포함) RFC 4180 CSV. 머리글은 레코드 필드의 한국어 표시 이름입니다. =, +, -, @, 탭, CR로 시작하는 문자열 셀은 수식으로 실행되지 않도록 앞에 작은따옴표를 붙입니다.",
  request: { params: JobIdParamSchema },
  responses: {
    200: { description: "CSV", content: { "text/csv;charset=UTF-8": { schema: z.string() } } },
    ...errorResponses("DATA_JOB_NOT_FOUND"),
  },
});

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const job = await loadJob(c, c.req.valid("param").id);
  return csvDownload(c, c.env, job);
};
