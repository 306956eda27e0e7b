import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import { listInvoices } from "../../domain/billing/invoices";
import { type ApiEnv, principalOf } from "../context";
import { errorResponses } from "../../platform/http/error-responses";
import { paged, PageQuerySchema, pageSchema } from "../../platform/http/paging";
import { InvoiceSchema, invoiceView } from "./shapes";
import { managing } from "../guards";

export const route = managing("billing.manage", createRoute({
  method: "get",
  path: "/billing/invoices",
  operationId: "listInvoices",
  tags: ["Billing"],
  summary: "청구서 목록",
  description: "확장 API. 최근 청구서부터. 금액은 원 단위 정수이고 공급가액, 부가세, 합계를 따로 보여 줍니다.",
  request: { query: PageQuerySchema },
  responses: {
    200: { description: "청구서 한 페이지", content: { "application/json": { schema: pageSchema(InvoiceSchema, "InvoicePage") } } },
    ...errorResponses("ADMIN_ACTION_FORBIDDEN", "INVALID_CURSOR", "INVALID_PARAM_FORMAT"),
  },
}));

export const handler: RouteHandler<typeof route, ApiEnv> = async (c) => {
  const { workspaceId } = principalOf(c);
  const query = c.req.valid("query");
  return c.json(await paged(c.env.CURSOR_SECRET, JSON.stringify(["invoices", workspaceId]), query, (after) => listInvoices(c.env.DB, workspaceId, { limit: query.limit, after }), invoiceView), 200);
};
