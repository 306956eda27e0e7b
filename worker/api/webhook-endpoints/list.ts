import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import { type ApiEnv, principalOf } from "../context";
import { errorResponses } from "../../platform/http/error-responses";
import { listEndpoints } from "../../domain/webhooks/endpoints";
import { paged, PageQuerySchema } from "../../platform/http/paging";
import { WebhookEndpointPageSchema } from "./shapes";
import { endpointView } from "./views";
import { keyed } from "../guards";

export const route = keyed(createRoute({
  method: "get",
  path: "/webhook-endpoints",
  operationId: "listWebhookEndpoints",
  tags: ["Webhooks"],
  summary: "웹훅 엔드포인트 목록",
  description: "최신 엔드포인트부터 돌려줍니다. 다음 페이지는 nextCursor를 cursor로 보내 받습니다. 비밀 값은 보여 주지 않습니다.",
  request: { query: PageQuerySchema },
  responses: {
    200: { description: "엔드포인트 한 페이지", content: { "application/json": { schema: WebhookEndpointPageSchema } } },
    ...errorResponses("INVALID_CURSOR", "INVALID_PARAM_FORMAT"),
  },
}));

export const handler: RouteHandler<typeof route, ApiEnv> = async (c) => {
  const { workspaceId } = principalOf(c);
  const query = c.req.valid("query");
  const page = await paged(c.env.CURSOR_SECRET, JSON.stringify(["webhook-endpoints", workspaceId]), query, (after) => listEndpoints(c.env.DB, workspaceId, query.limit, after), (row) => endpointView(row));
  return c.json(page, 200);
};
