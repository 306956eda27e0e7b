import type { OpenAPIHono } from "@hono/zod-openapi";
import type { ApiEnv } from "../context";
import * as createDeliveryRoute from "./create";
import * as listDeliveryRoutes from "./list";
import * as deleteDeliveryRoute from "./delete";
import * as listRouteDeliveries from "./deliveries";

/** Delivery routes belong to the key's own workspace; a partner's serve the jobs it makes for its businesses too. */
export function registerDeliveryRouteRoutes(api: OpenAPIHono<ApiEnv>): void {
  api.openapi(createDeliveryRoute.route, createDeliveryRoute.handler);
  api.openapi(listDeliveryRoutes.route, listDeliveryRoutes.handler);
  api.openapi(deleteDeliveryRoute.route, deleteDeliveryRoute.handler);
  api.openapi(listRouteDeliveries.route, listRouteDeliveries.handler);
}
