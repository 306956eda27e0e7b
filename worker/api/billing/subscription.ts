import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import { findSubscription } from "../../domain/billing/subscriptions";
import { type ApiEnv, principalOf } from "../context";
import { errorResponses } from "../../platform/http/error-responses";
import { workspaceRow } from "../../domain/workspaces/store";
import { SubscriptionSchema, subscriptionView } from "./shapes";
import { managing } from "../guards";

export const route = managing("billing.manage", createRoute({
  method: "get",
  path: "/billing/subscription",
  operationId: "getSubscription",
  tags: ["Billing"],
  summary: "현재 플랜과 결제 기간",
  description: "확장 API. 관리 권한(canManageKeys)이 있는 키만 부를 수 있습니다.",
  responses: {
    200: { description: "현재 구독", content: { "application/json": { schema: SubscriptionSchema } } },
    ...errorResponses("ADMIN_ACTION_FORBIDDEN"),
  },
}));

/** The workspace's subscription as every billing route answers it. */
export async function currentSubscription(d1: D1Database, workspaceId: string) {
  const [workspace, row] = await Promise.all([workspaceRow(d1, workspaceId), findSubscription(d1, workspaceId)]);
  return subscriptionView(workspace?.plan ?? "FREE", row);
}

export const handler: RouteHandler<typeof route, ApiEnv> = async (c) => c.json(await currentSubscription(c.env.DB, principalOf(c).workspaceId), 200);
