import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import { type ApiEnv, principalOf } from "../context";
import { errorResponses } from "../../platform/http/error-responses";
import { listDeliveries } from "../../domain/webhooks/deliveries";
import { findEndpoint } from "../../domain/webhooks/endpoints";
import { paged, PageQuerySchema } from "../../platform/http/paging";
import { EndpointIdParamSchema, WebhookDeliveryPageSchema } from "./shapes";
import { deliveryView } from "./views";
import { keyed } from "../guards";

export const route = keyed(createRoute({
  method: "get",
  path: "/webhook-endpoints/{id}/deliveries",
  operationId: "listWebhookDeliveries",
  tags: ["Webhooks"],
  summary: "웹훅 전송 기록",
  description: "엔드포인트로 보낸(보내는 중인) 이벤트를 최신부터 돌려줍니다. 각 전송에는 시도마다 응답 상태, 걸린 시간, 오류가 남습니다.",
  request: { params: EndpointIdParamSchema, query: PageQuerySchema },
  responses: {
    200: { description: "전송 기록 한 페이지", content: { "application/json": { schema: WebhookDeliveryPageSchema } } },
    ...errorResponses("RESOURCE_NOT_FOUND", "INVALID_CURSOR", "INVALID_PARAM_FORMAT"),
  },
}));

export const handler: RouteHandler<typeof route, ApiEnv> = async (c) => {
  const endpoint = await findEndpoint(c.env.DB, principalOf(c).workspaceId, c.req.valid("param").id);
  const query = c.req.valid("query");
  const page = await paged(c.env.CURSOR_SECRET, JSON.stringify(["webhook-deliveries", endpoint.id]), query, (after) => listDeliveries(c.env.DB, endpoint.id, query.limit, after), deliveryView);
  return c.json(page, 200);
};
