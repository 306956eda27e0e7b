import { randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { readJson, sendJson } from "../http-kit";

/**
 * A replica of the PortOne V2 REST API (api.portone.io) as far as recurring card billing uses it: a billing key from a
 * card's details, a payment with that key under a payment id the merchant chooses, the payment read back, a refund,
 * the key deleted. Paths, fields and error types are PortOne's (docs/billing.md cites each); what the PG (the card
 * company behind PortOne) answers is decided by test card numbers, as gateways' own test modes do.
 */
export const SANDBOX_PORTONE_SECRET = "sandbox-portone-api-secret";

/** What a test card does when charged (or, for REFUSED_AT_REGISTRATION, when registered): the PG's code and words. */
export const TEST_CARDS: Record<string, { pgCode: string; pgMessage: string; atRegistration?: true } | null> = {
  "4242424242424242": null,
  "5555555555554444": null,
  "4000000000000002": { pgCode: "REJECT_CARD_COMPANY", pgMessage: "카드사에서 결제 승인을 거절했습니다." },
  "4000000000009995": { pgCode: "REJECT_CARD_PAYMENT", pgMessage: "한도초과 혹은 잔액부족으로 결제에 실패했습니다." },
  "4000000000000069": { pgCode: "EXCEED_MAX_ONE_DAY_AMOUNT", pgMessage: "일일 한도를 초과했습니다." },
  "4000000000000036": { pgCode: "EXCEED_MAX_AMOUNT", pgMessage: "거래금액 한도를 초과했습니다." },
  "4000000000000119": { pgCode: "PROVIDER_ERROR", pgMessage: "일시적인 오류가 발생했습니다. 잠시 후 다시 시도해 주세요." },
  "4000000000000127": { pgCode: "INVALID_CARD_NUMBER", pgMessage: "카드번호를 다시 확인해 주세요.", atRegistration: true },
};

interface BillingKey {
  card: string;
  issuedAt: string;
  deletedAt?: string;
}

interface Payment {
  id: string;
  status: "PAID" | "FAILED" | "CANCELLED";
  transactionId: string;
  billingKey: string;
  orderName: string;
  total: number;
  currency: string;
  storeId: string;
  customerId: string | null;
  requestedAt: string;
  paidAt?: string;
  pgTxId?: string;
  cancelledAt?: string;
  failure?: { pgCode: string; pgMessage: string };
}

/** The store a payment is made at when the request names none (PortOne's API secret belongs to one merchant, whose default store that is). */
export const SANDBOX_STORE_ID = "store-sandbox";

export interface PortOneReplica {
  answer(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void>;
  /** Every payment attempt the replica answered, for tests and the sandbox's own page: what the card company saw. */
  payments(): Payment[];
}

const error = (res: ServerResponse, status: number, type: string, message: string, extra: Record<string, unknown> = {}) => sendJson(res, status, { type, message, ...extra });

/** The replica mounted under a path prefix (`/portone` on the sandbox server); `secret` is the API secret it accepts. */
export function portOneReplica(options: { prefix: string; secret?: string }): PortOneReplica {
  const secret = options.secret ?? SANDBOX_PORTONE_SECRET;
  const keys = new Map<string, BillingKey>();
  const payments = new Map<string, Payment>();
  const now = () => new Date().toISOString();

  async function issueBillingKey(req: IncomingMessage, res: ServerResponse) {
    const body = await readJson(req);
    const credential = (body.method as { card?: { credential?: Record<string, unknown> } } | undefined)?.card?.credential;
    const number = String(credential?.number ?? "").replace(/\D/g, "");
    if (!credential || number.length < 12 || !/^\d{2}$/.test(String(credential.expiryYear ?? "")) || !/^\d{2}$/.test(String(credential.expiryMonth ?? ""))) {
      return error(res, 400, "INVALID_REQUEST", "카드 정보(method.card.credential의 number, expiryYear, expiryMonth)가 올바르지 않습니다.");
    }
    const behaviour = TEST_CARDS[number];
    if (behaviour?.atRegistration) return error(res, 502, "PG_PROVIDER", behaviour.pgMessage, { pgCode: behaviour.pgCode, pgMessage: behaviour.pgMessage });
    const billingKey = `billing-key-${randomBytes(12).toString("hex")}`;
    const issuedAt = now();
    keys.set(billingKey, { card: number, issuedAt });
    sendJson(res, 200, { billingKeyInfo: { billingKey, issuedAt } });
  }

  async function payWithBillingKey(req: IncomingMessage, res: ServerResponse, paymentId: string) {
    const body = await readJson(req);
    const total = (body.amount as { total?: unknown } | undefined)?.total;
    // Any ISO 4217 code, as PortOne takes one (a merchant of ours asks for KRW; tests pay in another to see it refused).
    if (typeof body.billingKey !== "string" || typeof body.orderName !== "string" || !Number.isInteger(total) || (total as number) <= 0 || typeof body.currency !== "string" || !/^[A-Z]{3}$/.test(body.currency)) {
      return error(res, 400, "INVALID_REQUEST", "billingKey, orderName, amount.total(양의 정수), currency(예: KRW)가 필요합니다.");
    }
    const key = keys.get(body.billingKey);
    if (!key) return error(res, 404, "BILLING_KEY_NOT_FOUND", "빌링키가 존재하지 않습니다.");
    if (key.deletedAt) return error(res, 400, "BILLING_KEY_ALREADY_DELETED", "빌링키가 이미 삭제되었습니다.");
    if (payments.get(paymentId)?.status === "PAID") return error(res, 409, "ALREADY_PAID", "결제가 이미 완료되었습니다.");
    const payment: Payment = {
      id: paymentId,
      status: "PAID",
      transactionId: randomBytes(8).toString("hex"),
      billingKey: body.billingKey,
      orderName: body.orderName,
      total: total as number,
      currency: body.currency,
      storeId: typeof body.storeId === "string" ? body.storeId : SANDBOX_STORE_ID,
      customerId: typeof (body.customer as { id?: unknown } | undefined)?.id === "string" ? (body.customer as { id: string }).id : null,
      requestedAt: now(),
    };
    const refusal = TEST_CARDS[key.card];
    if (refusal) {
      payments.set(paymentId, { ...payment, status: "FAILED", failure: { pgCode: refusal.pgCode, pgMessage: refusal.pgMessage } });
      return error(res, 502, "PG_PROVIDER", refusal.pgMessage, { pgCode: refusal.pgCode, pgMessage: refusal.pgMessage });
    }
    const paid = { ...payment, paidAt: now(), pgTxId: `pg-${randomBytes(8).toString("hex")}` };
    payments.set(paymentId, paid);
    sendJson(res, 200, { payment: { pgTxId: paid.pgTxId, paidAt: paid.paidAt } });
  }

  /** As GET /payments/{paymentId} answers it: the fields a merchant reconciles with (a subset of PaidPayment and its kin). */
  const paymentView = (p: Payment) => ({
    status: p.status,
    id: p.id,
    transactionId: p.transactionId,
    storeId: p.storeId,
    billingKey: p.billingKey,
    orderName: p.orderName,
    amount: { total: p.total, paid: p.status === "PAID" ? p.total : 0, cancelled: p.status === "CANCELLED" ? p.total : 0 },
    currency: p.currency,
    ...(p.customerId ? { customer: { id: p.customerId } } : {}),
    requestedAt: p.requestedAt,
    ...(p.paidAt ? { paidAt: p.paidAt, pgTxId: p.pgTxId } : {}),
    ...(p.cancelledAt ? { cancelledAt: p.cancelledAt } : {}),
    ...(p.failure ? { failure: { reason: p.failure.pgMessage, pgCode: p.failure.pgCode, pgMessage: p.failure.pgMessage } } : {}),
  });

  async function cancelPayment(req: IncomingMessage, res: ServerResponse, paymentId: string) {
    const body = await readJson(req);
    const payment = payments.get(paymentId);
    if (!payment) return error(res, 404, "PAYMENT_NOT_FOUND", "결제 건이 존재하지 않습니다.");
    if (payment.status === "CANCELLED") return error(res, 409, "PAYMENT_ALREADY_CANCELLED", "결제가 이미 취소되었습니다.");
    if (payment.status !== "PAID") return error(res, 409, "PAYMENT_NOT_PAID", "결제가 완료되지 않았습니다.");
    if (typeof body.reason !== "string" || !body.reason) return error(res, 400, "INVALID_REQUEST", "reason이 필요합니다.");
    payment.status = "CANCELLED";
    payment.cancelledAt = now();
    sendJson(res, 200, { cancellation: { status: "SUCCEEDED", id: randomBytes(8).toString("hex"), totalAmount: payment.total, reason: body.reason, cancelledAt: payment.cancelledAt } });
  }

  return {
    payments: () => [...payments.values()],
    async answer(req, res, url) {
      const path = url.pathname.slice(options.prefix.length);
      // The sandbox's own view of what was charged (not PortOne's): tests count charges with it.
      if (path === "/_sandbox/payments" && req.method === "GET") return sendJson(res, 200, { items: [...payments.values()].map(paymentView) });
      // The sandbox's own list of its test cards (not PortOne's), which the console's billing page shows where it bills here.
      if (path === "/_sandbox/test-cards" && req.method === "GET") {
        return sendJson(res, 200, { items: Object.entries(TEST_CARDS).map(([number, pg]) => ({ number, registers: !pg?.atRegistration, pgCode: pg?.pgCode ?? null, pgMessage: pg?.pgMessage ?? null })) });
      }
      if (req.headers.authorization !== `PortOne ${secret}`) return error(res, 401, "UNAUTHORIZED", "인증 정보가 올바르지 않습니다.");
      const payment = /^\/payments\/([^/]+)(\/billing-key|\/cancel)?$/.exec(path);
      const key = /^\/billing-keys\/([^/]+)$/.exec(path);
      if (path === "/billing-keys" && req.method === "POST") return issueBillingKey(req, res);
      if (payment && payment[2] === "/billing-key" && req.method === "POST") return payWithBillingKey(req, res, decodeURIComponent(payment[1]!));
      if (payment && payment[2] === "/cancel" && req.method === "POST") return cancelPayment(req, res, decodeURIComponent(payment[1]!));
      if (payment && !payment[2] && req.method === "GET") {
        const found = payments.get(decodeURIComponent(payment[1]!));
        return found ? sendJson(res, 200, paymentView(found)) : error(res, 404, "PAYMENT_NOT_FOUND", "결제 건이 존재하지 않습니다.");
      }
      if (key && req.method === "DELETE") {
        const found = keys.get(decodeURIComponent(key[1]!));
        if (!found) return error(res, 404, "BILLING_KEY_NOT_FOUND", "빌링키가 존재하지 않습니다.");
        if (found.deletedAt) return error(res, 400, "BILLING_KEY_ALREADY_DELETED", "빌링키가 이미 삭제되었습니다.");
        found.deletedAt = now();
        return sendJson(res, 200, { deletedAt: found.deletedAt });
      }
      error(res, 404, "NOT_FOUND", "없는 경로입니다.");
    },
  };
}
