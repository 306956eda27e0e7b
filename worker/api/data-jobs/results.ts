import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import type { ApiEnv } from "../context";
import { resultUnits } from "../../domain/jobs/results-rows";
import { jsonResults } from "../../domain/results/json-export";
import { exportBody, RESULTS_CACHE_CONTROL } from "../../domain/results/edge-cache";
import { JobIdParamSchema, NO_STORE_HEADERS, ResultsSchema } from "./shapes";
import { errorResponses } from "../../platform/http/error-responses";
import { loadJob } from "./load-job";
import { businessScoped } from "../guards";

export const route = businessScoped(createRoute({
  method: "get",
  path: "/data-jobs/{id}/results",
  operationId: "getDataJobResults",
  tags: ["Data jobs"],
  summary: "결과 (JSON)",
  description: "끝난 작업 단위의 레코드를 단위 순서대로 돌려줍니다. 진행 중에는 지금까지의 부분 결과와 그 개수를 돌려줍니다.",
  request: { params: JobIdParamSchema },
  responses: {
    200: { description: "레코드", headers: NO_STORE_HEADERS, content: { "application/json": { schema: ResultsSchema } } },
    ...errorResponses("DATA_JOB_NOT_FOUND", "DATA_JOB_RESULTS_DELETED"),
  },
}));

export const handler: RouteHandler<typeof route, ApiEnv> = async (c) => {
  const job = await loadJob(c, c.req.valid("param").id);
  const units = await resultUnits(c.env.DB, job);
  const head = { jobId: job.id, schema: job.schema, totalCount: units.recordCount };
  const body = await exportBody(c, c.env.RESULTS, job, units, "json", (reader) => jsonResults(reader, head, units.units));
  // Streamed so memory stays flat; the typed route cannot express a stream, hence the cast.
  return c.body(body, 200, { "Content-Type": "application/json; charset=UTF-8", "Cache-Control": RESULTS_CACHE_CONTROL }) as never;
};
