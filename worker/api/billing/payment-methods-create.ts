import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import { addPaymentMethod } from "../../domain/billing/payment-methods";
import { portOneGateway } from "../../domain/billing/portone";
import { type ApiEnv, principalOf } from "../context";
import { errorResponses } from "../../platform/http/error-responses";
import { jsonBody } from "../../platform/http/json-body";
import { PaymentMethodSchema, paymentMethodView } from "./shapes";
import { CreatePaymentMethodBodySchema } from "../../domain/billing/inputs";
import { managing } from "../guards";

export const route = managing("billing.manage", createRoute({
  method: "post",
  path: "/billing/payment-methods",
  operationId: "createPaymentMethod",
  tags: ["Billing"],
  summary: "결제 카드 등록",
  description:
    "확장 API. 카드 정보를 결제대행사(PortOne)에 넘겨 정기 결제용 빌링키를 받고, 빌링키만 봉인해 둡니다. 카드 번호는 끝 네 자리 말고는 저장하지 않습니다. 다음 결제는 가장 최근에 등록한 카드로 합니다. 카드사가 등록을 거절하면 402 CARD_DECLINED 등, 다섯 장을 넘으면 400 INVALID_PARAM_FORMAT입니다.",
  request: jsonBody(CreatePaymentMethodBodySchema),
  responses: {
    201: { description: "등록한 카드", content: { "application/json": { schema: PaymentMethodSchema } } },
    ...errorResponses("ADMIN_ACTION_FORBIDDEN", "MISSING_REQUIRED_PARAM", "INVALID_PARAM_FORMAT", "CARD_DECLINED", "PAYMENT_FAILED"),
  },
}));

export const handler: RouteHandler<typeof route, ApiEnv> = async (c) => {
  const row = await addPaymentMethod(c.env, portOneGateway(c.env), principalOf(c).workspaceId, c.req.valid("json").card);
  return c.json(paymentMethodView(row), 201);
};
