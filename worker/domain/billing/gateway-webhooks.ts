import { eq } from "drizzle-orm";
import { verifyStandardWebhook, WebhookSignatureError } from "../../../contracts/webhooks";
import { database } from "../../platform/database/client";
import { invoices } from "./tables";
import type { Bindings } from "../../env";
import { ApiError } from "../../platform/errors/api-error";
import type { PaymentGateway } from "./gateway";
import { chargedAmount, recordPayment } from "./invoices";
import { chargeableMethod, forgetDeletedBillingKey } from "./payment-methods";

type GatewayWebhook = { type?: string; data?: { paymentId?: unknown; billingKey?: unknown } };

/**
 * A delivery from PortOne, signed as Standard Webhooks with the secret its console shows (PORTONE_WEBHOOK_SECRET):
 * anything unsigned, signed otherwise or older than five minutes is 401 WEBHOOK_SIGNATURE_INVALID (a flagged code:
 * someone is posting as the gateway). What it says is never taken on its word: a paid transaction is read back from
 * the gateway and recorded only as the gateway holds it, for an invoice of ours still open (the charge whose answer
 * the service never recorded); a deleted billing key removes its card here.
 */
export async function receiveGatewayWebhook(env: Pick<Bindings, "DB" | "PORTONE_WEBHOOK_SECRET">, gateway: PaymentGateway, body: string, headers: Headers): Promise<string> {
  if (!env.PORTONE_WEBHOOK_SECRET) throw new ApiError("WEBHOOK_SIGNATURE_INVALID", { message: "결제대행사 웹훅의 서명 비밀(PORTONE_WEBHOOK_SECRET)이 설정되지 않아 검증할 수 없습니다." });
  try {
    await verifyStandardWebhook(body, headers, env.PORTONE_WEBHOOK_SECRET);
  } catch (err) {
    if (err instanceof WebhookSignatureError) throw new ApiError("WEBHOOK_SIGNATURE_INVALID", { message: `결제대행사 웹훅의 서명을 확인하지 못했습니다: ${err.message}` });
    throw err;
  }
  let event: GatewayWebhook;
  try {
    event = JSON.parse(body) as GatewayWebhook;
  } catch {
    throw new ApiError("MALFORMED_REQUEST", { message: "서명은 맞지만 본문이 JSON이 아닙니다." });
  }
  if (event.type === "Transaction.Paid" && typeof event.data?.paymentId === "string") {
    const invoice = await database(env.DB).select().from(invoices).where(eq(invoices.id, event.data.paymentId)).get();
    if (!invoice || invoice.status !== "OPEN") return "ignored";
    const paid = await gateway.paidPayment(invoice.id);
    if (!paid || paid.amount !== chargedAmount(invoice)) return "ignored";
    await recordPayment(env.DB, invoice, { transactionId: paid.transactionId, paidAt: paid.paidAt, paymentMethodId: (await chargeableMethod(env.DB, invoice.workspaceId))?.id ?? null });
    return "recorded";
  }
  if (event.type === "BillingKey.Deleted" && typeof event.data?.billingKey === "string") {
    return (await forgetDeletedBillingKey(env.DB, event.data.billingKey)) ? "recorded" : "ignored";
  }
  return "ignored";
}
