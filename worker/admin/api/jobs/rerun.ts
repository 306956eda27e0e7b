import { rerunFailedJob } from "../../../domain/operators/actions";
import { actorOf, type AdminApiEnv } from "../../context";
import { createRoute, type RouteHandler, z } from "@hono/zod-openapi";
import { errorResponses } from "../../../platform/http/error-responses";
import { jsonBody } from "../../../platform/http/json-body";
import { IdParamSchema, JobSummarySchema, ReasonBodySchema } from "../shapes";
import { jobSummaryView } from "../views";
import { operating } from "../guards";

export const route = operating("jobs.rerun", createRoute({
  method: "post",
  path: "/jobs/{id}/rerun",
  operationId: "rerunFailedJob",
  tags: ["Jobs"],
  summary: "실패한 작업 다시 실행",
  description:
    "같은 워크스페이스에 같은 요청(기관, 스키마, 파라미터, 인증정보)으로 새 작업을 만듭니다. 원래 작업은 그대로 남습니다. Failed가 아닌 작업은 400 ACTION_NOT_SUPPORTED입니다. 새 작업은 파트너가 만든 작업처럼 워크스페이스 한도에 들어가고 같은 웹훅이 갑니다.",
  request: { params: IdParamSchema, ...jsonBody(ReasonBodySchema) },
  responses: {
    201: { description: "새 작업", content: { "application/json": { schema: z.object({ rerunOf: JobSummarySchema, job: JobSummarySchema }).openapi("AdminRerun") } } },
    ...errorResponses("DATA_JOB_NOT_FOUND", "ACTION_NOT_SUPPORTED", "WORKSPACE_ACCESS_DENIED", "FREE_PLAN_JOB_CAP_REACHED", "FREE_PLAN_TASK_CAP_REACHED", "TOO_MANY_CONCURRENT_WORKERS"),
  },
}));

export const handler: RouteHandler<typeof route, AdminApiEnv> = async (c) => {
  const { failed, job } = await rerunFailedJob(c.env, actorOf(c), c.req.valid("param").id, c.req.valid("json").reason);
  return c.json({ rerunOf: jobSummaryView(failed), job: jobSummaryView(job) }, 201);
};
