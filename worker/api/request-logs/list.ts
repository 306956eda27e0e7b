import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import { requestLogFilter, RequestLogQuerySchema } from "../../domain/request-logs/inputs";
import { requestLogPage } from "../../domain/request-logs/page";
import { requestLogItem } from "../../domain/request-logs/views";
import { errorResponses } from "../../platform/http/error-responses";
import { type ApiEnv, principalOf } from "../context";
import { managing } from "../guards";
import { RequestLogPageSchema } from "./shapes";

export const route = managing("logs.read", createRoute({
  method: "get",
  path: "/request-logs",
  operationId: "listRequestLogs",
  tags: ["Request logs"],
  summary: "API 요청 기록",
  description:
    "워크스페이스의 API 키로 보낸 /api/v1 요청을 최신부터 돌려줍니다(30일 보관). 상태, 오류 코드, 키, 메서드, 경로, 기간으로 거를 수 있고, 다음 페이지는 nextCursor를 cursor로 보내 받습니다. 커서는 발급 당시의 필터에 묶여 있습니다. 기록은 응답 뒤에 모아 쓰므로 요청이 목록에 보이기까지 몇 초 걸릴 수 있습니다. 키를 관리할 수 있는 키(canManageKeys)만 볼 수 있습니다.",
  request: { query: RequestLogQuerySchema },
  responses: {
    200: { description: "요청 기록 한 페이지", content: { "application/json": { schema: RequestLogPageSchema } } },
    ...errorResponses("INVALID_CURSOR", "INVALID_PARAM_FORMAT", "DATE_RANGE_INVALID"),
  },
}));

export const handler: RouteHandler<typeof route, ApiEnv> = async (c) => {
  const { workspaceId } = principalOf(c);
  const query = c.req.valid("query");
  return c.json(await requestLogPage(c.env.DB, c.env.CURSOR_SECRET, workspaceId, requestLogFilter(query), query, requestLogItem), 200);
};
