import { and, eq, isNull, lte, not, or, sql } from "drizzle-orm";
import { database } from "../../platform/database/client";
import { invoices, subscriptions } from "./tables";
import { ApiError } from "../../platform/errors/api-error";
import { log } from "../../platform/observability/telemetry";
import { PLAN_PRICES } from "../workspaces/plans";
import { workspaceRow } from "../workspaces/store";
import type { PaymentGateway } from "./gateway";
import { getInvoice, type InvoiceRow, openPeriodInvoice, periodInvoice, recordRenewalRefusal } from "./invoices";
import { type BillingEnv, payInvoice, periodFrom } from "./plan-change";
import { RETRY_AFTER_FIRST_FAILURE_MS } from "../workspaces/past-due";
import { endSubscription, findSubscription, overageOf } from "./subscriptions";

/** Subscriptions one cron run renews at most; the rest wait a minute. */
const RENEWALS_PER_RUN = 50;

/** When the renewal refused now is charged again: counted from the first refusal; null after the last try. */
function nextTry(firstRefusal: number, attemptsSoFar: number): number | null {
  const delay = RETRY_AFTER_FIRST_FAILURE_MS[attemptsSoFar];
  return delay === undefined ? null : firstRefusal + delay;
}

/**
 * Charges a renewal invoice now. Refused, it is counted and its next try set, and the workspace is past due from its
 * first refusal (worker/domain/workspaces/past-due.ts: jobs stop after the grace period); the refusal is rethrown.
 */
export async function chargeRenewal(env: BillingEnv, gateway: PaymentGateway, invoice: InvoiceRow, now: number = Date.now()): Promise<void> {
  try {
    await payInvoice(env, gateway, invoice);
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    // The workspace's mark: an overage bill of a cancelled plan has no subscription left to carry one.
    const since = (await workspaceRow(env.DB, invoice.workspaceId))?.pastDueSince ?? now;
    await recordRenewalRefusal(env.DB, invoice, err.code, nextTry(since, invoice.attempts), now);
    throw err;
  }
}

/**
 * The owner pays a past-due renewal now (API and console): the open renewal invoice of a past-due subscription,
 * charged at once to the newest card; anything else is 400 SUBSCRIPTION_NOT_PAST_DUE. Returns the invoice as it ends.
 */
export async function payPastDue(env: BillingEnv, gateway: PaymentGateway, workspaceId: string, invoiceId: string): Promise<InvoiceRow> {
  const invoice = await getInvoice(env.DB, workspaceId, invoiceId);
  if (!(await isPastDue(env.DB, invoice))) {
    throw new ApiError("SUBSCRIPTION_NOT_PAST_DUE", { message: "연체된 구독의 미결제 갱신 청구서나 결제가 거절된 초과 작업 청구서만 이렇게 결제할 수 있습니다. 이 청구서는 결제할 것이 없습니다." });
  }
  await chargeRenewal(env, gateway, invoice);
  return getInvoice(env.DB, workspaceId, invoiceId);
}

/**
 * An invoice the owner may pay now: an open renewal of a past-due subscription, or an open overage bill a charge was
 * refused for (its subscription may be gone: a cancellation).
 */
export async function isPastDue(d1: D1Database, invoice: InvoiceRow): Promise<boolean> {
  if (invoice.status !== "OPEN") return false;
  if (invoice.kind === "OVERAGE") return invoice.attempts > 0;
  return invoice.kind === "RENEWAL" && (await findSubscription(d1, invoice.workspaceId))?.status === "PAST_DUE";
}

/** A renewal that waits: paid already, or refused and not yet due again (or out of automatic tries). */
const waiting = (now: number) =>
  sql`EXISTS (SELECT 1 FROM ${invoices} WHERE ${invoices.workspaceId} = ${subscriptions.workspaceId} AND ${invoices.kind} = 'RENEWAL' AND ${invoices.periodStart} = ${subscriptions.currentPeriodEnd}
      AND (${invoices.status} <> 'OPEN' OR (${invoices.attempts} > 0 AND coalesce(${invoices.nextAttemptAt}, ${now} + 1) > ${now})))`;

/**
 * Run by the cron: every paid period that ended without a change booked is renewed for the next month, charged to
 * the newest card with the usage credits applied first, its jobs past the allowance billed with it. A refused renewal
 * is tried again on its schedule (RETRY_AFTER_FIRST_FAILURE_MS); after the last try only the owner's "pay now" charges
 * it. Renewals that wait are not selected at all, so however many there are they never crowd out the ones due. A
 * workspace an operator moved off the paid plan meanwhile is not renewed: its subscription ends. Then the overage bills
 * of periods no renewal follows (applyBookedChanges) are charged, and retried, the same way. `only` limits it to one
 * workspace (the sandbox's test clock).
 */
export async function renewSubscriptions(env: BillingEnv, gateway: PaymentGateway, now: number = Date.now(), only?: string): Promise<{ renewed: number; refused: number }> {
  const due = await database(env.DB)
    .select()
    .from(subscriptions)
    .where(and(isNull(subscriptions.pendingPlan), lte(subscriptions.currentPeriodEnd, now), not(waiting(now)), only ? eq(subscriptions.workspaceId, only) : undefined))
    .limit(RENEWALS_PER_RUN)
    .all();
  const outcome = { renewed: 0, refused: 0 };
  const charge = async (invoice: InvoiceRow) => {
    try {
      await chargeRenewal(env, gateway, invoice, now);
      outcome.renewed++;
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      outcome.refused++;
      log("warn", "renewal-refused", { workspaceId: invoice.workspaceId, invoiceId: invoice.id, kind: invoice.kind, code: err.code });
    }
  };
  for (const subscription of due) {
    const plan = (await workspaceRow(env.DB, subscription.workspaceId))?.plan;
    const price = plan ? PLAN_PRICES[plan] : null;
    if (!plan || !price) {
      await endSubscription(env.DB, subscription.workspaceId, subscription.currentPeriodEnd);
      continue;
    }
    const existing = await periodInvoice(env.DB, subscription.workspaceId, "RENEWAL", subscription.currentPeriodEnd);
    // Billed on its own already (a booked change to another paid plan), the period's overage is not billed again.
    const billed = existing ?? (await periodInvoice(env.DB, subscription.workspaceId, "OVERAGE", subscription.currentPeriodStart));
    const overage = billed ? undefined : await overageOf(env.DB, subscription.workspaceId, plan, subscription.currentPeriodStart, subscription.currentPeriodEnd);
    await charge(existing ?? (await openPeriodInvoice(env.DB, { workspaceId: subscription.workspaceId, plan, kind: "RENEWAL", ...periodFrom(subscription.currentPeriodEnd), supplyAmount: price, overage }, now)));
  }
  for (const invoice of await dueOverageBills(env.DB, now, only)) await charge(invoice);
  return outcome;
}

/** Overage bills to charge now: never tried, or refused and due again. */
function dueOverageBills(d1: D1Database, now: number, only?: string): Promise<InvoiceRow[]> {
  return database(d1)
    .select()
    .from(invoices)
    .where(
      and(
        eq(invoices.status, "OPEN"),
        eq(invoices.kind, "OVERAGE"),
        or(eq(invoices.attempts, 0), lte(invoices.nextAttemptAt, now)),
        only ? eq(invoices.workspaceId, only) : undefined,
      ),
    )
    .limit(RENEWALS_PER_RUN)
    .all();
}
