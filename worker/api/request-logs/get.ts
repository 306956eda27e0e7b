import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import { workspaceRequestLog } from "../../domain/request-logs/store";
import { requestLogDetail } from "../../domain/request-logs/views";
import { errorResponses } from "../../platform/http/error-responses";
import { type ApiEnv, principalOf } from "../context";
import { managing } from "../guards";
import { RequestIdParamSchema, RequestLogDetailSchema } from "./shapes";

export const route = managing("logs.read", createRoute({
  method: "get",
  path: "/request-logs/{requestId}",
  operationId: "getRequestLog",
  tags: ["Request logs"],
  summary: "API 요청 기록 하나",
  description:
    "requestId(X-Request-Id, 오류 봉투의 requestId)로 요청 하나를 찾습니다: 가린 뒤의 쿼리와 본문, 받은 오류 봉투까지. 다른 워크스페이스의 요청, 30일이 지난 요청, 아직 기록되지 않은 요청은 404 RESOURCE_NOT_FOUND입니다.",
  request: { params: RequestIdParamSchema },
  responses: {
    200: { description: "요청 기록", content: { "application/json": { schema: RequestLogDetailSchema } } },
    ...errorResponses("RESOURCE_NOT_FOUND"),
  },
}));

export const handler: RouteHandler<typeof route, ApiEnv> = async (c) =>
  c.json(requestLogDetail(await workspaceRequestLog(c.env.DB, principalOf(c).workspaceId, c.req.valid("param").requestId)), 200);
