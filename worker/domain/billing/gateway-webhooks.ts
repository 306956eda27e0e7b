import { eq } from "drizzle-orm";
import { verifyStandardWebhook, WebhookSignatureError } from "../../../contracts/webhooks";
import { database } from "../../platform/database/client";
import { invoices } from "./tables";
import { ApiError } from "../../platform/errors/api-error";
import type { PaymentGateway } from "./gateway";
import { chargedAmount, recordPayment } from "./invoices";
import { cardsByBillingKey, forgetDeletedBillingKey, isOurBillingKey } from "./payment-methods";

type GatewayWebhook = { type?: string; data?: { paymentId?: unknown; billingKey?: unknown } };

/** The body as JSON, or null: a delivery is read only after its signature, or to judge a refused one. */
function parsed(body: string): GatewayWebhook | null {
  try {
    const value = JSON.parse(body) as unknown;
    return value && typeof value === "object" ? (value as GatewayWebhook) : null;
  } catch {
    return null;
  }
}

/**
 * Whether a delivery names something of ours: one of our invoices (its payment id) or one of our cards (its billing
 * key). A misconfigured secret makes the gateway's real deliveries fail the check, and they always do; noise from the
 * internet cannot, since invoice ids are random UUIDs and billing keys are never shown.
 */
async function namesOurs(d1: D1Database, event: GatewayWebhook | null): Promise<boolean> {
  const { paymentId, billingKey } = event?.data ?? {};
  if (typeof paymentId === "string" && paymentId.length <= 64 && (await database(d1).select({ id: invoices.id }).from(invoices).where(eq(invoices.id, paymentId)).get())) return true;
  return typeof billingKey === "string" && billingKey.length <= 200 && (await isOurBillingKey(d1, billingKey));
}

/**
 * A delivery from PortOne, signed as Standard Webhooks with the secret its console shows (PORTONE_WEBHOOK_SECRET):
 * anything unsigned, signed otherwise or older than five minutes is 401 WEBHOOK_SIGNATURE_INVALID (a flagged code:
 * someone is posting as the gateway, or our secret is not the gateway's). Only a refused delivery that names one of our
 * invoices or cards counts toward the operators' alert; the rest is noise anybody can send, answered alike but
 * uncounted, so it can neither raise the alert nor hold it open. What a delivery says is never taken on its word: a
 * paid transaction is read back from the gateway and recorded only as the gateway holds it (its amount, currency,
 * store and card), for an invoice of ours still open (the charge whose answer the service never recorded); a deleted
 * billing key removes its card here.
 */
export async function receiveGatewayWebhook(env: Pick<Env, "DB" | "PORTONE_WEBHOOK_SECRET">, gateway: PaymentGateway, body: string, headers: Headers): Promise<string> {
  const refused = async (message: string) => new ApiError("WEBHOOK_SIGNATURE_INVALID", { message, noise: !(await namesOurs(env.DB, parsed(body))) });
  if (!env.PORTONE_WEBHOOK_SECRET) throw await refused("결제대행사 웹훅의 서명 비밀(PORTONE_WEBHOOK_SECRET)이 설정되지 않아 검증할 수 없습니다.");
  try {
    await verifyStandardWebhook(body, headers, env.PORTONE_WEBHOOK_SECRET);
  } catch (err) {
    if (err instanceof WebhookSignatureError) throw await refused(`결제대행사 웹훅의 서명을 확인하지 못했습니다: ${err.message}`);
    throw err;
  }
  const event = parsed(body);
  if (!event) throw new ApiError("MALFORMED_REQUEST", { message: "서명은 맞지만 본문이 JSON 객체가 아닙니다." });
  if (event.type === "Transaction.Paid" && typeof event.data?.paymentId === "string") {
    const invoice = await database(env.DB).select().from(invoices).where(eq(invoices.id, event.data.paymentId)).get();
    if (!invoice || invoice.status !== "OPEN") return "ignored";
    const cards = await cardsByBillingKey(env.DB, invoice.workspaceId);
    const paid = await gateway.paidPayment(invoice.id, { amount: chargedAmount(invoice), billingKeyHashes: cards.map((c) => c.billingKeyHash) });
    if (!paid) return "ignored";
    await recordPayment(env.DB, invoice, { transactionId: paid.transactionId, paidAt: paid.paidAt, paymentMethodId: cards.find((c) => c.billingKeyHash === paid.billingKeyHash)?.id ?? null });
    return "recorded";
  }
  if (event.type === "BillingKey.Deleted" && typeof event.data?.billingKey === "string") {
    return (await forgetDeletedBillingKey(env.DB, event.data.billingKey)) ? "recorded" : "ignored";
  }
  return "ignored";
}
