import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import { getInvoice } from "../../domain/billing/invoices";
import { type ApiEnv, principalOf } from "../context";
import { errorResponses } from "../../platform/http/error-responses";
import { IdParamSchema, InvoiceSchema, invoiceView } from "./shapes";
import { managing } from "../guards";

export const route = managing("billing.manage", createRoute({
  method: "get",
  path: "/billing/invoices/{id}",
  operationId: "getInvoice",
  tags: ["Billing"],
  summary: "청구서",
  description: "확장 API. 이 워크스페이스의 청구서가 아니면 404 INVOICE_NOT_FOUND입니다.",
  request: { params: IdParamSchema },
  responses: {
    200: { description: "청구서", content: { "application/json": { schema: InvoiceSchema } } },
    ...errorResponses("ADMIN_ACTION_FORBIDDEN", "INVOICE_NOT_FOUND"),
  },
}));

export const handler: RouteHandler<typeof route, ApiEnv> = async (c) => c.json(invoiceView(await getInvoice(c.env.DB, principalOf(c).workspaceId, c.req.valid("param").id)), 200);
