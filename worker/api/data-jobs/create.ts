import { createRoute, type RouteHandler, z } from "@hono/zod-openapi";
import { type ApiEnv, principalOf } from "../context";
import { createJob } from "../../domain/jobs/create";
import { jobView, pollIntervalMs } from "../../domain/jobs/views";
import { CreateDataJobBodySchema, DataJobSchema } from "./shapes";
import { errorResponses } from "../../platform/http/error-responses";
import { jsonBody } from "../../platform/http/json-body";
import { afterAnswer } from "../../platform/http/after-answer";
import { jobWorkspace } from "../../domain/jobs/acting-for";
import { behind } from "../../platform/http/route-fronts";
import { API_KEY_CHECK } from "../guards";
import { BUSINESS_SELECTION_OR_BODY } from "../select-business";
import { LOGS_BODY } from "../request-log";

export const route = behind(createRoute({
  method: "post",
  path: "/data-jobs",
  operationId: "createDataJob",
  tags: ["Data jobs"],
  summary: "수집 작업 생성",
  description:
    "작업을 기록하고 201로 현재 상태를 돌려줍니다. 로그인할 자격 증명은 credentialId로 고르거나, 없으면 이 기관의 유일한(여럿이면 기본) 자격 증명입니다 (docs/credentials.md). 워크스페이스에 이 기관의 자격 증명이 없으면 작업은 곧바로 Failed(CREDENTIAL_NOT_FOUND)로 끝나고, 자격 증명이 유효기간이 지난 인증서이면 아무것도 기록하지 않고 409 CREDENTIAL_EXPIRED입니다. 파트너는 사업자를 connectionId나 X-SVC-Business 헤더로 고릅니다. 같은 Idempotency-Key와 같은 본문은 같은 작업을 돌려주며, 그 작업이 아직 대기(PENDING) 중이면 실행을 다시 요청합니다.",
  request: {
    headers: z.object({
      "Idempotency-Key": z.string().min(1).max(128).optional().meta({ description: "1-128자. 키는 워크스페이스별로 24시간 이상 유지됩니다." }),
    }),
    ...jsonBody(CreateDataJobBodySchema),
  },
  responses: {
    201: { description: "작업이 기록되었습니다", content: { "application/json": { schema: DataJobSchema } } },
    ...errorResponses(
      "MISSING_REQUIRED_PARAM", "INVALID_PARAM_FORMAT", "INVALID_DATA_JOB_PARAMS", "INVALID_PROVIDER_CODE",
      "ACTION_NOT_SUPPORTED", "DATE_RANGE_INVALID", "DATE_RANGE_EXCEEDED", "SCHEMA_NOT_FOUND", "IDEMPOTENCY_KEY_CONFLICT", "INVALID_CURSOR",
      "FREE_PLAN_JOB_CAP_REACHED",
      "FREE_PLAN_TASK_CAP_REACHED",
      "CREDENTIAL_EXPIRED", "CREDENTIAL_NOT_FOUND", "CREDENTIAL_REVOKED", "CREDENTIAL_SUPERSEDED", "CREDENTIAL_PROVIDER_DUPLICATED",
      "PROVIDER_CODE_MISMATCH", "CREDENTIAL_INSUFFICIENT_FOR_PROVIDER", "CREDENTIAL_SCOPE_NOT_SUPPORTED", "CREDENTIAL_NATIVE_REWRAP_IN_PROGRESS", "CONNECTION_CREDENTIAL_UNREADABLE", "ACCOUNT_NOT_FOUND",
      "CONNECTION_AND_CREDENTIAL_ID_EXCLUSIVE", "CONNECTION_REQUIRED_FOR_PARTNER", "CREDENTIAL_ID_NOT_ALLOWED",
      "TOO_MANY_CONCURRENT_WORKERS", "DELIVERY_ROUTE_NOT_FOUND", "SUBSCRIPTION_PAST_DUE",
    ),
  },
}), API_KEY_CHECK, BUSINESS_SELECTION_OR_BODY, LOGS_BODY);

export const handler: RouteHandler<typeof route, ApiEnv> = async (c) => {
  const body = c.req.valid("json");
  const workspaceId = await jobWorkspace(c.env.DB, principalOf(c), body);
  const row = await createJob(c.env, workspaceId, body, c.req.valid("header")["Idempotency-Key"], null, (work) => afterAnswer(c, work));
  return c.json(jobView(row, pollIntervalMs(c.env)), 201);
};
