import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import { createDownloadLink } from "../../domain/download-links/links";
import { type ApiEnv, principalOf } from "../context";
import { errorResponses } from "../../platform/http/error-responses";
import { loadJob } from "../data-jobs/load-job";
import { JobIdParamSchema, NO_STORE_HEADERS } from "../data-jobs/shapes";
import { RESULTS_CACHE_CONTROL } from "../../domain/results/edge-cache";
import { CreateDownloadLinkBodySchema, DownloadLinkSchema } from "./shapes";
import { businessScoped } from "../guards";
import { LOGS_BODY } from "../request-log";

export const route = businessScoped(createRoute({
  method: "post",
  path: "/data-jobs/{id}/download-links",
  operationId: "createDownloadLink",
  tags: ["Data jobs"],
  summary: "다운로드 링크 만들기 (CSV, Excel)",
  description:
    "API 키 없이 이 작업의 CSV(results.csv와 같은 바이트) 또는 format: xlsx면 Excel 파일(results.xlsx와 같은 내용)을 내려받는 서명된 링크를 만듭니다. 형식은 링크에 서명되어 바꿀 수 없습니다. BI 도구, 스프레드시트, 브라우저에 그대로 넘길 수 있습니다. 링크는 만료되거나, 만든 API 키가 폐기되면 (파트너는 사업자 연결이 해지되어도) 더는 쓸 수 없습니다. 진행 중인 작업의 링크는 그때까지의 부분 결과를 내려줍니다. 링크는 결과보다 오래 살지 않아 끝난 작업의 resultsExpireAt을 넘지 않으며, 결과가 지워진 작업은 410 DATA_JOB_RESULTS_DELETED입니다 (docs/retention.md). 본문은 생략할 수 있습니다.",
  request: {
    params: JobIdParamSchema,
    body: { required: false, content: { "application/json": { schema: CreateDownloadLinkBodySchema } } },
  },
  responses: {
    201: { description: "만든 링크", headers: NO_STORE_HEADERS, content: { "application/json": { schema: DownloadLinkSchema } } },
    ...errorResponses("INVALID_PARAM_FORMAT", "DATA_JOB_NOT_FOUND", "DATA_JOB_RESULTS_DELETED"),
  },
}), LOGS_BODY);

export const handler: RouteHandler<typeof route, ApiEnv> = async (c) => {
  const job = await loadJob(c, c.req.valid("param").id);
  // The body is optional: without one the validator hands over {} as it is, so the default is applied here.
  const asked = CreateDownloadLinkBodySchema.parse(c.req.valid("json"));
  const link = await createDownloadLink(c.env, new URL(c.req.url).origin, principalOf(c), job, asked, Date.now());
  // The link is the results' key: kept by no cache, as the results themselves are not.
  return c.json(link, 201, { "Cache-Control": RESULTS_CACHE_CONTROL });
};
