import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import { deleteRoute } from "../../domain/deliveries/store";
import { type ApiEnv, principalOf } from "../context";
import { ApiError } from "../../platform/errors/api-error";
import { errorResponses } from "../../platform/http/error-responses";
import { RouteIdParamSchema } from "./shapes";
import { managing } from "../guards";

export const route = managing("deliveries.manage", createRoute({
  method: "delete",
  path: "/delivery-routes/{id}",
  operationId: "deleteDeliveryRoute",
  tags: ["Delivery routes"],
  summary: "결과 전달 경로 삭제",
  description: "이후 이 경로를 이름 붙인 작업과 일정 생성은 400 DELIVERY_ROUTE_NOT_FOUND, 보내지 못한 전달은 FAILED로 끝납니다. 전달 기록은 남습니다.",
  request: { params: RouteIdParamSchema },
  responses: {
    204: { description: "삭제되었습니다" },
    ...errorResponses("RESOURCE_NOT_FOUND", "ADMIN_ACTION_FORBIDDEN"),
  },
}));

export const handler: RouteHandler<typeof route, ApiEnv> = async (c) => {
  if (!(await deleteRoute(c.env.DB, principalOf(c).workspaceId, c.req.valid("param").id))) throw new ApiError("RESOURCE_NOT_FOUND", { message: "전달 경로를 찾을 수 없습니다." });
  return c.body(null, 204);
};
