import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import type { ApiEnv } from "../context";
import { jobView, pollIntervalMs } from "../../domain/jobs/views";
import { DataJobSchema, JobIdParamSchema } from "./shapes";
import { errorResponses } from "../../platform/http/error-responses";
import { loadJob } from "./load-job";
import { businessScoped } from "../guards";
import { FOLDS_REPEATS, foldedJson } from "../request-log";

export const route = businessScoped(createRoute({
  method: "get",
  path: "/data-jobs/{id}",
  operationId: "getDataJob",
  tags: ["Data jobs"],
  summary: "수집 작업 조회",
  description: "kind가 Succeeded 또는 Failed가 될 때까지 suggestedPollIntervalMs 간격으로 폴링합니다.",
  request: { params: JobIdParamSchema },
  responses: {
    200: { description: "작업의 현재 상태", content: { "application/json": { schema: DataJobSchema } } },
    ...errorResponses("DATA_JOB_NOT_FOUND"),
  },
}), FOLDS_REPEATS);

export const handler: RouteHandler<typeof route, ApiEnv> = async (c) => foldedJson(c, jobView(await loadJob(c, c.req.valid("param").id), pollIntervalMs(c.env)));
