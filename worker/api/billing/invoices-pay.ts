import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import { portOneGateway } from "../../domain/billing/portone";
import { payPastDue } from "../../domain/billing/renewal";
import { type ApiEnv, principalOf } from "../context";
import { errorResponses } from "../../platform/http/error-responses";
import { IdParamSchema, InvoiceSchema, invoiceView } from "./shapes";
import { managing } from "../guards";

export const route = managing("billing.manage", createRoute({
  method: "post",
  path: "/billing/invoices/{id}/pay",
  operationId: "payInvoice",
  tags: ["Billing"],
  summary: "미결제 청구서 지금 결제",
  description:
    "확장 API. 갱신 결제가 실패해 연체(PAST_DUE)된 구독의 청구서, 또는 결제가 거절된 초과 작업 청구서(OVERAGE: 해지한 플랜의 마지막 기간)를 가장 최근 카드로 지금 결제합니다. 결제되면 곧바로 연체가 풀리고 새 작업을 다시 만들 수 있습니다. 그런 청구서가 아니면 400 SUBSCRIPTION_NOT_PAST_DUE, 카드사가 거절하면 402입니다.",
  request: { params: IdParamSchema },
  responses: {
    200: { description: "결제된 청구서", content: { "application/json": { schema: InvoiceSchema } } },
    ...errorResponses("ADMIN_ACTION_FORBIDDEN", "INVOICE_NOT_FOUND", "SUBSCRIPTION_NOT_PAST_DUE", "PAYMENT_METHOD_REQUIRED", "CARD_DECLINED", "CARD_LIMIT_EXCEEDED", "INSUFFICIENT_FUNDS", "MERCHANT_LIMIT_EXCEEDED", "PAYMENT_FAILED"),
  },
}));

export const handler: RouteHandler<typeof route, ApiEnv> = async (c) =>
  c.json(invoiceView(await payPastDue(c.env, portOneGateway(c.env), principalOf(c).workspaceId, c.req.valid("param").id)), 200);
