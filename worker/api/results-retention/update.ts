import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import { type ApiEnv, principalOf } from "../context";
import { errorResponses } from "../../platform/http/error-responses";
import { jsonBody } from "../../platform/http/json-body";
import { setResultsRetention } from "../../domain/workspaces/results-retention";
import { ResultsRetentionSchema, ResultsRetentionUpdateSchema } from "./shapes";
import { managing } from "../guards";
import { LOGS_BODY } from "../request-log";

export const route = managing("results.retention", createRoute({
  method: "put",
  path: "/results-retention",
  operationId: "updateResultsRetention",
  tags: ["Data jobs"],
  summary: "결과 보관 기간 정하기",
  description:
    "이제부터 끝나는 작업의 결과를 보관할 일수를 정합니다: 1부터 플랜 최대값까지의 정수, null이면 플랜 기본값. 범위 밖이나 정수가 아닌 값은 400 INVALID_PARAM_FORMAT입니다. 이미 끝난 작업의 resultsExpireAt은 바뀌지 않으며, 더 일찍 지우려면 DELETE /data-jobs/{id}/results를 씁니다. 소유자 권한(canManageKeys)의 키만 부를 수 있습니다 (docs/retention.md).",
  request: jsonBody(ResultsRetentionUpdateSchema),
  responses: {
    200: { description: "바뀐 보관 기간", content: { "application/json": { schema: ResultsRetentionSchema } } },
    ...errorResponses("INVALID_PARAM_FORMAT", "MISSING_REQUIRED_PARAM"),
  },
}), LOGS_BODY);

export const handler: RouteHandler<typeof route, ApiEnv> = async (c) =>
  c.json(await setResultsRetention(c.env.DB, principalOf(c).workspaceId, c.req.valid("json").days, "body.days"), 200);
