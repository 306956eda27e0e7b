import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import { findRoute, listDeliveries } from "../../domain/deliveries/store";
import { type ApiEnv, principalOf } from "../context";
import { ApiError } from "../../platform/errors/api-error";
import { errorResponses } from "../../platform/http/error-responses";
import { paged, PageQuerySchema, pageSchema } from "../../platform/http/paging";
import { RouteDeliverySchema, RouteIdParamSchema } from "./shapes";
import { deliveryView } from "../../domain/deliveries/views";
import { managing } from "../guards";

export const route = managing("deliveries.manage", createRoute({
  method: "get",
  path: "/delivery-routes/{id}/deliveries",
  operationId: "listRouteDeliveries",
  tags: ["Delivery routes"],
  summary: "결과 전달 기록",
  description: "이 경로로 보낸(보내는) 작업 결과, 최신 것부터: 상태, 시도 수, 마지막 오류, 도착한 파일과 크기. 콘솔의 결과 전달 화면처럼 관리 권한이 있는 키만 부를 수 있습니다(403 ADMIN_ACTION_FORBIDDEN).",
  request: { params: RouteIdParamSchema, query: PageQuerySchema },
  responses: {
    200: { description: "전달 한 페이지", content: { "application/json": { schema: pageSchema(RouteDeliverySchema, "RouteDeliveryPage") } } },
    ...errorResponses("RESOURCE_NOT_FOUND", "INVALID_CURSOR"),
  },
}));

export const handler: RouteHandler<typeof route, ApiEnv> = async (c) => {
  const { workspaceId } = principalOf(c);
  const { id } = c.req.valid("param");
  if (!(await findRoute(c.env.DB, id, [workspaceId]))) throw new ApiError("RESOURCE_NOT_FOUND", { message: "전달 경로를 찾을 수 없습니다." });
  const query = c.req.valid("query");
  return c.json(await paged(c.env.CURSOR_SECRET, JSON.stringify(["route-deliveries", id]), query, (after) => listDeliveries(c.env.DB, id, { limit: query.limit, after }), deliveryView), 200);
};
