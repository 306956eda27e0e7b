import { createRoute, type RouteHandler, z } from "@hono/zod-openapi";
import { refundPaidInvoice } from "../../../domain/operators/actions";
import { actorOf, type AdminApiEnv } from "../../context";
import { errorResponses } from "../../../platform/http/error-responses";
import { uuid } from "../../../platform/http/bounds";
import { jsonBody } from "../../../platform/http/json-body";
import { FreshCodeSchema, IdParamSchema, ReasonSchema } from "../shapes";
import { operating } from "../guards";

export const route = operating("invoices.refund", createRoute({
  method: "post",
  path: "/invoices/{id}/refund",
  operationId: "refundInvoice",
  tags: ["Billing"],
  summary: "청구서 환불",
  description:
    "카드로 결제된 청구서의 결제를 결제대행사에서 전액 취소하고, 청구서를 REFUNDED로, 원장에 취소(VOIDED)·크레딧 반환·환불(REFUNDED)을 남깁니다. 요금제는 따로 바꿉니다. 돌려줄 카드 결제가 없으면 400 ACTION_NOT_SUPPORTED, 없는 청구서는 404 INVOICE_NOT_FOUND입니다. 돈이 움직이는 작업이라 인증 앱의 새 코드(code)가 필요하며, 없거나 틀렸거나 이미 쓴 코드는 401 INVALID_CREDENTIALS이고 로그인 실패처럼 계정 잠금에 셉니다. 감사 기록에 남습니다.",
  request: { params: IdParamSchema, ...jsonBody(z.object({ reason: ReasonSchema, code: FreshCodeSchema }).openapi("AdminInvoiceRefund")) },
  responses: {
    200: { description: "환불한 청구서", content: { "application/json": { schema: z.object({ id: uuid(), status: z.literal("REFUNDED") }).openapi("RefundedInvoice") } } },
    ...errorResponses("INVOICE_NOT_FOUND", "ACTION_NOT_SUPPORTED", "PAYMENT_FAILED", "INVALID_CREDENTIALS", "TOO_MANY_LOGIN_ATTEMPTS"),
  },
}));

export const handler: RouteHandler<typeof route, AdminApiEnv> = async (c) => {
  const { reason, code } = c.req.valid("json");
  const invoice = await refundPaidInvoice(c.env, actorOf(c), c.req.valid("param").id, reason, code);
  return c.json({ id: invoice.id, status: "REFUNDED" as const }, 200);
};
