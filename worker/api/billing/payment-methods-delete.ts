import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import { deletePaymentMethod } from "../../domain/billing/payment-methods";
import { portOneGateway } from "../../domain/billing/portone";
import { type ApiEnv, principalOf } from "../context";
import { errorResponses } from "../../platform/http/error-responses";
import { IdParamSchema } from "./shapes";
import { managing } from "../guards";

export const route = managing("billing.manage", createRoute({
  method: "delete",
  path: "/billing/payment-methods/{id}",
  operationId: "deletePaymentMethod",
  tags: ["Billing"],
  summary: "결제 카드 삭제",
  description:
    "확장 API. 결제대행사의 빌링키도 지웁니다. 유료 플랜의 다음 결제에 쓰일 유일한 카드는 409 PAYMENT_METHOD_IN_USE(다른 카드를 먼저 등록하거나 해지를 예약), 없는 카드는 404 PAYMENT_METHOD_NOT_FOUND입니다.",
  request: { params: IdParamSchema },
  responses: {
    204: { description: "삭제했습니다" },
    ...errorResponses("ADMIN_ACTION_FORBIDDEN", "PAYMENT_METHOD_NOT_FOUND", "PAYMENT_METHOD_IN_USE", "PAYMENT_FAILED"),
  },
}));

export const handler: RouteHandler<typeof route, ApiEnv> = async (c) => {
  await deletePaymentMethod(c.env, portOneGateway(c.env), principalOf(c).workspaceId, c.req.valid("param").id);
  return c.body(null, 204);
};
