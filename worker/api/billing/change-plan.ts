import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import { changePlan } from "../../domain/billing/plan-change";
import { portOneGateway } from "../../domain/billing/portone";
import { type ApiEnv, principalOf } from "../context";
import { errorResponses } from "../../platform/http/error-responses";
import { jsonBody } from "../../platform/http/json-body";
import { SubscriptionSchema } from "./shapes";
import { ChangePlanBodySchema } from "../../domain/billing/inputs";
import { currentSubscription } from "./subscription";
import { managing } from "../guards";

export const route = managing("billing.manage", createRoute({
  method: "post",
  path: "/billing/subscription/plan",
  operationId: "changePlan",
  tags: ["Billing"],
  summary: "플랜 변경",
  description:
    "확장 API. 올리면 곧바로 한 달 가격(부가세 포함)을 등록된 카드로 결제하고 그때부터 한 달이 결제 기간입니다. 내리면 결제 기간이 끝날 때 바뀌도록 예약합니다(pendingPlan, 취소 가능). 카드가 없으면 400 PAYMENT_METHOD_REQUIRED, 카드사가 거절하면 402 CARD_DECLINED·CARD_LIMIT_EXCEEDED·INSUFFICIENT_FUNDS·MERCHANT_LIMIT_EXCEEDED·PAYMENT_FAILED이며 같은 요청을 다시 보내면 같은 청구서로 다시 결제합니다(두 번 결제되지 않음). 지금 플랜이면 400 SAME_PLAN_CHANGE, INTERNAL은 403 INTERNAL_PLAN_NOT_PURCHASABLE, INTERNAL에서는 403 INTERNAL_PLAN_NOT_MUTABLE입니다.",
  request: jsonBody(ChangePlanBodySchema),
  responses: {
    200: { description: "바뀐(또는 변경이 예약된) 구독", content: { "application/json": { schema: SubscriptionSchema } } },
    ...errorResponses(
      "ADMIN_ACTION_FORBIDDEN",
      "MISSING_REQUIRED_PARAM",
      "INVALID_PARAM_FORMAT",
      "SAME_PLAN_CHANGE",
      "PAYMENT_METHOD_REQUIRED",
      "INTERNAL_PLAN_NOT_PURCHASABLE",
      "INTERNAL_PLAN_NOT_MUTABLE",
      "SUBSCRIPTION_NOT_FOUND",
      "CARD_DECLINED",
      "CARD_LIMIT_EXCEEDED",
      "INSUFFICIENT_FUNDS",
      "MERCHANT_LIMIT_EXCEEDED",
      "PAYMENT_FAILED",
    ),
  },
}));

export const handler: RouteHandler<typeof route, ApiEnv> = async (c) => {
  const { workspaceId } = principalOf(c);
  await changePlan(c.env, portOneGateway(c.env), workspaceId, c.req.valid("json").plan);
  return c.json(await currentSubscription(c.env.DB, workspaceId), 200);
};
