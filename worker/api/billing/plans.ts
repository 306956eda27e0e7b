import { createRoute, type RouteHandler, z } from "@hono/zod-openapi";
import { invoiceAmounts } from "../../domain/billing/invoices";
import { PLANS } from "../../domain/workspaces/tables";
import type { ApiEnv } from "../context";
import { errorResponses } from "../../platform/http/error-responses";
import { PLAN_LIMITS, PLAN_NAMES, PLAN_OVERAGE, PLAN_PRICES, PLAN_RESULTS_RETENTION } from "../../domain/workspaces/plans";
import { PlanOfferSchema } from "./shapes";
import { keyed } from "../guards";

export const route = keyed(createRoute({
  method: "get",
  path: "/billing/plans",
  operationId: "listPlans",
  tags: ["Billing"],
  summary: "플랜과 가격",
  description: "확장 API. 플랜마다 한 달 가격(공급가액, 부가세, 합계, 원)과 한도, 결과를 보관할 수 있는 최대 일수입니다 (docs/billing.md).",
  responses: {
    200: { description: "플랜 목록", content: { "application/json": { schema: z.object({ items: z.array(PlanOfferSchema).max(10) }).openapi("PlanOfferList") } } },
    ...errorResponses(),
  },
}));

export const handler: RouteHandler<typeof route, ApiEnv> = async (c) => {
  const items = PLANS.map((plan) => {
    const price = PLAN_PRICES[plan];
    const amounts = price === null ? { supplyAmount: null, vatAmount: null, totalAmount: null } : invoiceAmounts(price);
    return { plan, name: PLAN_NAMES[plan], purchasable: price !== null, ...amounts, limits: PLAN_LIMITS[plan], overage: PLAN_OVERAGE[plan], maxResultsRetentionDays: PLAN_RESULTS_RETENTION[plan].maxDays };
  });
  return c.json({ items }, 200);
};
