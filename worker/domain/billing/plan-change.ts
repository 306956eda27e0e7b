import type { PLANS } from "../workspaces/tables";
import { ApiError } from "../../platform/errors/api-error";
import { PLAN_NAMES, PLAN_PRICES } from "../workspaces/plans";
import { workspaceRow } from "../workspaces/store";
import type { PaymentGateway } from "./gateway";
import { chargedAmount, getInvoice, type InvoiceRow, markAttempt, openInvoiceFor, openUpgrade, recordFailure, recordPayment } from "./invoices";
import { chargeableMethod, openBillingKey } from "./payment-methods";
import { bookChange, findSubscription } from "./subscriptions";

type Plan = (typeof PLANS)[number];
export type BillingEnv = Pick<Env, "DB" | "VAULT_MASTER_KEY">;

/** A paid period: a calendar month from the moment it starts (the same day and time next month, or that month's last day). */
export function periodFrom(start: number): { periodStart: number; periodEnd: number } {
  const at = new Date(start);
  const next = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1, at.getUTCHours(), at.getUTCMinutes(), at.getUTCSeconds(), at.getUTCMilliseconds()));
  const lastDay = new Date(Date.UTC(next.getUTCFullYear(), next.getUTCMonth() + 1, 0)).getUTCDate();
  next.setUTCDate(Math.min(at.getUTCDate(), lastDay));
  return { periodStart: start, periodEnd: next.getTime() };
}

/**
 * Charges an open invoice (less its credits) to the workspace's newest card under the invoice's id, then records the
 * payment (and the plan it pays for) in one transaction; an invoice the credits cover whole is recorded without a
 * charge. `record` is the recording step, a seam for the test that crashes between the two.
 */
export async function payInvoice(env: BillingEnv, gateway: PaymentGateway, invoice: InvoiceRow, record = recordPayment): Promise<void> {
  const amount = chargedAmount(invoice);
  // Not charged unless still open at this moment: a voided invoice is never paid (worker/domain/billing/void.ts), and
  // one a parallel request paid meanwhile is done.
  if (!(await markAttempt(env.DB, invoice.id, Date.now()))) {
    if ((await getInvoice(env.DB, invoice.workspaceId, invoice.id)).status === "PAID") return;
    throw new ApiError("PAYMENT_FAILED", { message: "청구서가 더는 결제할 수 없는 상태입니다. 처음부터 다시 시도해 주세요." });
  }
  if (amount === 0) return record(env.DB, invoice, { transactionId: null, paidAt: Date.now(), paymentMethodId: null });
  const method = await chargeableMethod(env.DB, invoice.workspaceId);
  if (!method) throw new ApiError("PAYMENT_METHOD_REQUIRED");
  const paid = await gateway.charge({
    paymentId: invoice.id,
    billingKey: await openBillingKey(env.VAULT_MASTER_KEY, method),
    orderName: invoice.kind === "OVERAGE" ? `데이터 수집 ${PLAN_NAMES[invoice.plan]} 플랜 초과 작업 ${invoice.overageJobs}건` : `데이터 수집 ${PLAN_NAMES[invoice.plan]} 플랜 1개월`,
    amount,
    customerId: invoice.workspaceId,
  });
  await record(env.DB, invoice, { ...paid, paymentMethodId: method.id });
}

/**
 * Moves a workspace to another plan: up at once (the month's price charged now, VAT added), down at the end of the
 * paid period (booked, and withdrawable). INTERNAL is neither bought (403 INTERNAL_PLAN_NOT_PURCHASABLE) nor left
 * from here (403 INTERNAL_PLAN_NOT_MUTABLE); the plan in force again is 400 SAME_PLAN_CHANGE.
 */
export async function changePlan(env: BillingEnv, gateway: PaymentGateway, workspaceId: string, target: Plan, record = recordPayment): Promise<void> {
  const current = (await workspaceRow(env.DB, workspaceId))?.plan ?? "FREE";
  if (target === "INTERNAL") throw new ApiError("INTERNAL_PLAN_NOT_PURCHASABLE");
  if (current === "INTERNAL") throw new ApiError("INTERNAL_PLAN_NOT_MUTABLE", { message: "내부 플랜은 운영자가 정한 플랜이라 콘솔이나 API로 바꿀 수 없습니다. 고객 지원에 문의해 주세요." });
  if (target === current) {
    throw new ApiError("SAME_PLAN_CHANGE", { message: `이미 ${PLAN_NAMES[current]} 플랜입니다. 예약된 변경을 취소하려면 DELETE /api/v1/billing/subscription/pending-change를 부르세요.` });
  }
  if (PLAN_PRICES[target]! > PLAN_PRICES[current]!) {
    if (!(await chargeableMethod(env.DB, workspaceId))) throw new ApiError("PAYMENT_METHOD_REQUIRED");
    // An upgrade asked again (after a refusal, or a crash after the charge), or asked five times at once, charges the
    // same invoice, never a second one.
    const invoice = (await openInvoiceFor(env.DB, workspaceId, target)) ?? (await openUpgrade(env.DB, { workspaceId, plan: target, ...periodFrom(Date.now()), supplyAmount: PLAN_PRICES[target]! }));
    if (!invoice) {
      // A parallel upgrade was paid after this one read the plan: done, if it was to this plan.
      if ((await workspaceRow(env.DB, workspaceId))?.plan === target) return;
      throw new ApiError("PAYMENT_FAILED", { message: "결제 기간이 남은 구독이 있어 새로 결제하지 않았습니다. 구독 상태를 확인한 뒤 다시 시도해 주세요." });
    }
    try {
      await payInvoice(env, gateway, invoice, record);
    } catch (err) {
      if (err instanceof ApiError) await recordFailure(env.DB, invoice.id, err.code);
      throw err;
    }
    return;
  }
  if (!(await findSubscription(env.DB, workspaceId))) throw new ApiError("SUBSCRIPTION_NOT_FOUND");
  await bookChange(env.DB, workspaceId, target);
}

/** Cancels the paid plan at the period's end (FREE booked). 400 ALREADY_FREE_NO_OP on FREE. */
export async function cancelPlan(env: BillingEnv, workspaceId: string): Promise<void> {
  const current = (await workspaceRow(env.DB, workspaceId))?.plan ?? "FREE";
  if (current === "FREE") throw new ApiError("ALREADY_FREE_NO_OP");
  if (current === "INTERNAL") throw new ApiError("INTERNAL_PLAN_NOT_MUTABLE", { message: "내부 플랜은 운영자가 정한 플랜이라 해지할 수 없습니다. 고객 지원에 문의해 주세요." });
  if (!(await findSubscription(env.DB, workspaceId))) throw new ApiError("SUBSCRIPTION_NOT_FOUND");
  await bookChange(env.DB, workspaceId, "FREE");
}
