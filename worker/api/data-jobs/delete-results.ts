import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import type { ApiEnv } from "../context";
import { deleteResultsAndExports } from "../../domain/jobs/results-rows";
import { JobIdParamSchema, ResultsDeletionSchema } from "./shapes";
import { errorResponses } from "../../platform/http/error-responses";
import { loadJob } from "./load-job";
import { managingBusiness } from "../guards";

export const route = managingBusiness("results.retention", createRoute({
  method: "delete",
  path: "/data-jobs/{id}/results",
  operationId: "deleteDataJobResults",
  tags: ["Data jobs"],
  summary: "결과 삭제",
  description:
    "끝난 작업의 결과(JSON, CSV와 그 저장본)를 지금 지웁니다. 작업 정보(GET /data-jobs/{id})는 남고 resultsExpireAt이 삭제 시각이 되며, 그 뒤 결과를 읽으면(JSON, CSV, 다운로드 링크) 410 DATA_JOB_RESULTS_DELETED, 전달 경로로 보내기 전이면 전달하지 않습니다. 이미 지워진 결과(요청, 자격 증명 삭제, 보관 기간 만료)면 그 삭제를 그대로 돌려주므로 다시 불러도 안전합니다. 진행 중인 작업은 409 DATA_JOB_NOT_FINISHED입니다. 소유자 권한(canManageKeys)의 키만 부를 수 있습니다 (docs/retention.md).",
  request: { params: JobIdParamSchema },
  responses: {
    200: { description: "지워진 결과", content: { "application/json": { schema: ResultsDeletionSchema } } },
    ...errorResponses("DATA_JOB_NOT_FOUND", "DATA_JOB_NOT_FINISHED"),
  },
}));

export const handler: RouteHandler<typeof route, ApiEnv> = async (c) => {
  const job = await loadJob(c, c.req.valid("param").id);
  return c.json(await deleteResultsAndExports(c, c.env, job, Date.now()), 200);
};
