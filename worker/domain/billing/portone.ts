import { ApiError } from "../../platform/errors/api-error";
import type { ApiErrorCode } from "../../platform/errors/codes";
import type { PaymentGateway } from "./gateway";
import { sha256Hex } from "../../platform/lib/crypto";
import { log } from "../../platform/observability/telemetry";

/**
 * The PortOne V2 REST API (docs/billing.md, "PortOne" cites each fact): `Authorization: PortOne <API secret>`,
 * `POST /billing-keys` with the card's credential, `POST /payments/{paymentId}/billing-key` under a payment id we
 * choose (the invoice's, so a retried charge meets PortOne's ALREADY_PAID instead of paying twice),
 * `GET /payments/{paymentId}` to read what was paid, `POST /payments/{paymentId}/cancel` to give it back,
 * `DELETE /billing-keys/{billingKey}`. Errors carry a `type`; a
 * card company's refusal is `PG_PROVIDER` with the PG's own `pgCode`, which maps to the catalog's 402 codes. Only
 * the body's `type` is relied on, never the HTTP status.
 */
const PG_CODES: Record<string, ApiErrorCode> = {
  REJECT_CARD_COMPANY: "CARD_DECLINED",
  INVALID_STOPPED_CARD: "CARD_DECLINED",
  INVALID_CARD_EXPIRATION: "CARD_DECLINED",
  INVALID_CARD_NUMBER: "CARD_DECLINED",
  INVALID_REJECT_CARD: "CARD_DECLINED",
  FDS_ERROR: "CARD_DECLINED",
  EXCEED_MAX_ONE_DAY_AMOUNT: "CARD_LIMIT_EXCEEDED",
  EXCEED_MAX_DAILY_PAYMENT_COUNT: "CARD_LIMIT_EXCEEDED",
  EXCEED_MAX_AUTH_COUNT: "CARD_LIMIT_EXCEEDED",
  REJECT_CARD_PAYMENT: "INSUFFICIENT_FUNDS",
  REJECT_ACCOUNT_PAYMENT: "INSUFFICIENT_FUNDS",
  EXCEED_MAX_AMOUNT: "MERCHANT_LIMIT_EXCEEDED",
};

type PortOneError = { type?: string; message?: string; pgCode?: string; pgMessage?: string };

/** What GET /payments/{paymentId} answers, as far as a payment is reconciled with its invoice (the SDK's `PaidPayment`). */
type PortOnePayment = { status: string; transactionId: string; pgTxId?: string; paidAt?: string; amount?: { total: number }; currency?: string; storeId?: string; billingKey?: string };

/** The catalog's code for a card company's refusal: the mapped ones, else PAYMENT_FAILED. */
export const pgCodeOutcome = (pgCode: string): ApiErrorCode => PG_CODES[pgCode] ?? "PAYMENT_FAILED";

/** The catalog's refusal for a PortOne error body: the PG's words beside ours, so the holder knows what their card company said. */
function refusal(body: PortOneError): ApiError {
  const code = body.type === "PG_PROVIDER" && body.pgCode ? pgCodeOutcome(body.pgCode) : "PAYMENT_FAILED";
  const said = body.pgMessage ?? body.message;
  return new ApiError(code, said ? { message: `${new ApiError(code).message} (결제대행사 응답: ${said.slice(0, 200)})` } : {});
}

export type PortOneConfig = Pick<Env, "PORTONE_API_URL" | "PORTONE_API_SECRET" | "PORTONE_STORE_ID">;

export function portOneGateway(config: PortOneConfig): PaymentGateway {
  const { PORTONE_API_URL: base, PORTONE_API_SECRET: secret } = config;
  const storeId = config.PORTONE_STORE_ID ? { storeId: config.PORTONE_STORE_ID } : {};
  async function call<T>(method: string, path: string, body?: unknown): Promise<{ ok: true; body: T } | { ok: false; body: PortOneError }> {
    if (!base || !secret) throw new ApiError("PAYMENT_FAILED", { message: "결제대행사 연동(PORTONE_API_URL, PORTONE_API_SECRET)이 설정되지 않아 결제할 수 없습니다. 운영자에게 알려 주세요." });
    let response: Response;
    try {
      response = await fetch(`${base.replace(/\/$/, "")}${path}`, {
        method,
        headers: { Authorization: `PortOne ${secret}`, ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch {
      // Nothing is known to have happened; the same payment id makes the next try safe.
      throw new ApiError("PAYMENT_FAILED", { message: "결제대행사에 연결하지 못했습니다. 잠시 후 다시 시도해 주세요." });
    }
    const parsed = (await response.json().catch(() => ({}))) as T & PortOneError;
    return response.ok ? { ok: true, body: parsed } : { ok: false, body: parsed };
  }
  const gateway: PaymentGateway = {
    async registerCard(card, customerId) {
      const answer = await call<{ billingKeyInfo: { billingKey: string } }>("POST", "/billing-keys", { ...storeId, method: { card: { credential: card } }, customer: { id: customerId } });
      if (!answer.ok) throw refusal(answer.body);
      return { billingKey: answer.body.billingKeyInfo.billingKey };
    },
    async charge({ paymentId, billingKey, orderName, amount, customerId }) {
      const answer = await call<{ payment: { pgTxId: string; paidAt: string } }>("POST", `/payments/${encodeURIComponent(paymentId)}/billing-key`, {
        ...storeId,
        billingKey,
        orderName,
        amount: { total: amount },
        currency: "KRW",
        customer: { id: customerId },
      });
      if (answer.ok) return { transactionId: answer.body.payment.pgTxId, paidAt: Date.parse(answer.body.payment.paidAt) };
      if (answer.body.type !== "ALREADY_PAID") throw refusal(answer.body);
      // Paid before (a retry after a crash, a parallel request): what PortOne holds for this id is the payment, if it
      // is this invoice's: the same amount, in won, at our store, with this card.
      const paid = await gateway.paidPayment(paymentId, { amount, billingKeyHashes: [await sha256Hex(billingKey)] });
      if (!paid) throw refusal({ message: "결제대행사에 같은 결제 번호로 된 결제가 이 청구서의 금액·통화·상점·카드와 다릅니다. 운영자에게 알려 주세요." });
      return paid;
    },
    async paidPayment(paymentId, expected) {
      const answer = await call<PortOnePayment>("GET", `/payments/${encodeURIComponent(paymentId)}`);
      if (!answer.ok || answer.body.status !== "PAID") return null;
      const payment = answer.body;
      const billingKeyHash = typeof payment.billingKey === "string" ? await sha256Hex(payment.billingKey) : "";
      const mismatch = [
        payment.amount?.total !== expected.amount && "amount",
        payment.currency !== "KRW" && "currency",
        storeId.storeId !== undefined && payment.storeId !== storeId.storeId && "store",
        !expected.billingKeyHashes.includes(billingKeyHash) && "billing key",
      ].filter(Boolean);
      if (mismatch.length > 0) {
        // Someone else's payment under our id (another store of the account, another card): never recorded as ours.
        log("error", "gateway-payment-mismatch", { paymentId, mismatch: mismatch.join(", ") });
        return null;
      }
      return { transactionId: payment.pgTxId ?? payment.transactionId, paidAt: Date.parse(payment.paidAt ?? ""), amount: expected.amount, billingKeyHash };
    },
    async refund(paymentId, reason) {
      const answer = await call("POST", `/payments/${encodeURIComponent(paymentId)}/cancel`, { ...storeId, reason });
      if (!answer.ok && answer.body.type !== "PAYMENT_ALREADY_CANCELLED") throw refusal(answer.body);
    },
    async forgetCard(billingKey) {
      const answer = await call("DELETE", `/billing-keys/${encodeURIComponent(billingKey)}`);
      if (!answer.ok && answer.body.type !== "BILLING_KEY_ALREADY_DELETED" && answer.body.type !== "BILLING_KEY_NOT_FOUND") throw refusal(answer.body);
    },
  };
  return gateway;
}
