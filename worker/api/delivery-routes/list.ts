import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import { listRoutes } from "../../domain/deliveries/store";
import { type ApiEnv, principalOf } from "../context";
import { errorResponses } from "../../platform/http/error-responses";
import { paged, PageQuerySchema, pageSchema } from "../../platform/http/paging";
import { DeliveryRouteSchema } from "./shapes";
import { routeView } from "../../domain/deliveries/views";
import { managing } from "../guards";

export const route = managing("deliveries.manage", createRoute({
  method: "get",
  path: "/delivery-routes",
  operationId: "listDeliveryRoutes",
  tags: ["Delivery routes"],
  summary: "결과 전달 경로 목록",
  description: "확장 API. 경로의 목적지(버킷, 서버)를 보여 주므로, 콘솔의 결과 전달 화면처럼 관리 권한이 있는 키만 부를 수 있습니다(403 ADMIN_ACTION_FORBIDDEN).",
  request: { query: PageQuerySchema },
  responses: {
    200: { description: "경로 한 페이지, 최신 것부터", content: { "application/json": { schema: pageSchema(DeliveryRouteSchema, "DeliveryRoutePage") } } },
    ...errorResponses("INVALID_CURSOR"),
  },
}));

export const handler: RouteHandler<typeof route, ApiEnv> = async (c) => {
  const { workspaceId } = principalOf(c);
  const query = c.req.valid("query");
  return c.json(await paged(c.env.CURSOR_SECRET, JSON.stringify(["delivery-routes", workspaceId]), query, (after) => listRoutes(c.env.DB, workspaceId, { limit: query.limit, after }), routeView), 200);
};
