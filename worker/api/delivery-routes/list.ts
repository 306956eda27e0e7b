import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import { listRoutes } from "../../domain/deliveries/store";
import { type ApiEnv, principalOf } from "../context";
import { errorResponses } from "../../platform/http/error-responses";
import { paged, PageQuerySchema, pageSchema } from "../../platform/http/paging";
import { DeliveryRouteSchema } from "./shapes";
import { routeView } from "../../domain/deliveries/views";
import { keyed } from "../guards";

export const route = keyed(createRoute({
  method: "get",
  path: "/delivery-routes",
  operationId: "listDeliveryRoutes",
  tags: ["Delivery routes"],
  summary: "결과 전달 경로 목록",
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
