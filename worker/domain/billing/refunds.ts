import { and, eq } from "drizzle-orm";
import { database, statementOf } from "../../platform/database/client";
import { invoices } from "./tables";
import { ApiError } from "../../platform/errors/api-error";
import type { PaymentGateway } from "./gateway";
import { chargedAmount, type InvoiceRow } from "./invoices";
import { cancellationStatements } from "./void";

/**
 * Gives a paid invoice's card payment back whole (an operator's action): the gateway refunds first, then the invoice
 * is REFUNDED and the ledger takes it off (VOIDED), gives its credits back (CREDIT_RETURNED) and records the money
 * returned (REFUNDED), in one transaction. Asked again after a crash between the two, the gateway answers "already
 * cancelled" and the recording completes. The plan is the operator's to change separately. 404 INVOICE_NOT_FOUND;
 * 400 ACTION_NOT_SUPPORTED for an invoice with no card payment to give back.
 */
export async function refundInvoice(d1: D1Database, gateway: PaymentGateway, invoiceId: string, reason: string, now: number = Date.now()): Promise<InvoiceRow> {
  const invoice = await database(d1).select().from(invoices).where(eq(invoices.id, invoiceId)).get();
  if (!invoice) throw new ApiError("INVOICE_NOT_FOUND");
  if (invoice.status !== "PAID" || chargedAmount(invoice) === 0) {
    throw new ApiError("ACTION_NOT_SUPPORTED", { message: "카드로 결제된 청구서만 환불할 수 있습니다. 이 청구서는 돌려줄 결제가 없습니다." });
  }
  await gateway.refund(invoice.id, reason);
  await d1.batch([
    statementOf(d1, database(d1).update(invoices).set({ status: "REFUNDED" }).where(and(eq(invoices.id, invoice.id), eq(invoices.status, "PAID")))),
    ...cancellationStatements(d1, invoice.id, "REFUNDED", now),
  ]);
  return { ...invoice, status: "REFUNDED" };
}
