import { createRoute, type RouteHandler, z } from "@hono/zod-openapi";
import { listPaymentMethods, MAX_PAYMENT_METHODS } from "../../domain/billing/payment-methods";
import { type ApiEnv, principalOf } from "../context";
import { errorResponses } from "../../platform/http/error-responses";
import { PaymentMethodSchema, paymentMethodView } from "./shapes";
import { managing } from "../guards";

export const route = managing("billing.manage", createRoute({
  method: "get",
  path: "/billing/payment-methods",
  operationId: "listPaymentMethods",
  tags: ["Billing"],
  summary: "결제 카드 목록",
  description: "확장 API. 최근에 등록한 카드부터. 첫 카드로 다음 결제를 합니다.",
  responses: {
    200: { description: "카드 목록", content: { "application/json": { schema: z.object({ items: z.array(PaymentMethodSchema).max(MAX_PAYMENT_METHODS) }).openapi("PaymentMethodList") } } },
    ...errorResponses("ADMIN_ACTION_FORBIDDEN"),
  },
}));

export const handler: RouteHandler<typeof route, ApiEnv> = async (c) => c.json({ items: (await listPaymentMethods(c.env.DB, principalOf(c).workspaceId)).map(paymentMethodView) }, 200);
