import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import { withdrawChange } from "../../domain/billing/subscriptions";
import { type ApiEnv, principalOf } from "../context";
import { errorResponses } from "../../platform/http/error-responses";
import { SubscriptionSchema } from "./shapes";
import { currentSubscription } from "./subscription";
import { managing } from "../guards";

export const route = managing("billing.manage", createRoute({
  method: "delete",
  path: "/billing/subscription/pending-change",
  operationId: "withdrawPlanChange",
  tags: ["Billing"],
  summary: "예약된 플랜 변경 취소",
  description: "확장 API. 예약된 다운그레이드나 해지를 거둡니다. 지금 플랜이 그대로 갱신됩니다. 예약된 변경이 없으면 400 NO_PENDING_PLAN_CHANGE입니다.",
  responses: {
    200: { description: "변경 예약이 없어진 구독", content: { "application/json": { schema: SubscriptionSchema } } },
    ...errorResponses("ADMIN_ACTION_FORBIDDEN", "NO_PENDING_PLAN_CHANGE"),
  },
}));

export const handler: RouteHandler<typeof route, ApiEnv> = async (c) => {
  const { workspaceId } = principalOf(c);
  await withdrawChange(c.env.DB, workspaceId);
  return c.json(await currentSubscription(c.env.DB, workspaceId), 200);
};
