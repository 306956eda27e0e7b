import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import { cancelPlan } from "../../domain/billing/plan-change";
import { type ApiEnv, principalOf } from "../context";
import { errorResponses } from "../../platform/http/error-responses";
import { SubscriptionSchema } from "./shapes";
import { currentSubscription } from "./subscription";
import { managing } from "../guards";

export const route = managing("billing.manage", createRoute({
  method: "post",
  path: "/billing/subscription/cancel",
  operationId: "cancelSubscription",
  tags: ["Billing"],
  summary: "유료 플랜 해지",
  description: "확장 API. 결제 기간이 끝나면 FREE가 되도록 예약합니다(pendingPlan: FREE). 그때까지는 지금 플랜 그대로이고, 예약은 취소할 수 있습니다. FREE면 400 ALREADY_FREE_NO_OP입니다.",
  responses: {
    200: { description: "해지가 예약된 구독", content: { "application/json": { schema: SubscriptionSchema } } },
    ...errorResponses("ADMIN_ACTION_FORBIDDEN", "ALREADY_FREE_NO_OP", "INTERNAL_PLAN_NOT_MUTABLE", "SUBSCRIPTION_NOT_FOUND"),
  },
}));

export const handler: RouteHandler<typeof route, ApiEnv> = async (c) => {
  const { workspaceId } = principalOf(c);
  await cancelPlan(c.env, workspaceId);
  return c.json(await currentSubscription(c.env.DB, workspaceId), 200);
};
