import { and, eq, isNull, lte } from "drizzle-orm";
import { database } from "../../platform/database/client";
import { subscriptions } from "./tables";
import { ApiError } from "../../platform/errors/api-error";
import { log } from "../../platform/observability/telemetry";
import { type Plan, PLAN_OVERAGE, PLAN_PRICES } from "../workspaces/plans";
import { jobsCreatedBetween } from "../jobs/store";
import { workspaceRow } from "../workspaces/store";
import type { PaymentGateway } from "./gateway";
import { getInvoice, type InvoiceRow, openInvoice, recordRenewalRefusal, renewalInvoice } from "./invoices";
import { type BillingEnv, payInvoice, periodFrom } from "./plan-change";
import { RETRY_AFTER_FIRST_FAILURE_MS } from "./past-due";
import { findSubscription } from "./subscriptions";

/** Subscriptions one cron run renews at most; the rest wait a minute. */
const RENEWALS_PER_RUN = 50;

/** The jobs past the plan's monthly allowance in the period that ended, and their price: billed with the renewal. */
async function overageOf(d1: D1Database, workspaceId: string, plan: Plan, periodStart: number, periodEnd: number): Promise<{ jobs: number; amount: number }> {
  const terms = PLAN_OVERAGE[plan];
  if (!terms) return { jobs: 0, amount: 0 };
  const jobs = Math.max(0, (await jobsCreatedBetween(d1, workspaceId, periodStart, periodEnd)) - terms.includedJobs);
  return { jobs, amount: jobs * terms.perJob };
}

/** When the renewal refused now is charged again: counted from the first refusal; null after the last try. */
function nextTry(firstRefusal: number, attemptsSoFar: number): number | null {
  const delay = RETRY_AFTER_FIRST_FAILURE_MS[attemptsSoFar];
  return delay === undefined ? null : firstRefusal + delay;
}

/**
 * Charges a renewal invoice now. Refused, it is counted and its next try set, and the workspace is past due from its
 * first refusal (worker/domain/billing/past-due.ts: jobs stop after the grace period); the refusal is rethrown.
 */
export async function chargeRenewal(env: BillingEnv, gateway: PaymentGateway, invoice: InvoiceRow, now: number = Date.now()): Promise<void> {
  try {
    await payInvoice(env, gateway, invoice);
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    const since = (await findSubscription(env.DB, invoice.workspaceId))?.pastDueSince ?? now;
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
  if (invoice.kind !== "RENEWAL" || invoice.status !== "OPEN" || (await findSubscription(env.DB, workspaceId))?.status !== "PAST_DUE") {
    throw new ApiError("SUBSCRIPTION_NOT_PAST_DUE", { message: "연체된 구독의 미결제 갱신 청구서만 이렇게 결제할 수 있습니다. 이 청구서는 결제할 것이 없습니다." });
  }
  await chargeRenewal(env, gateway, invoice);
  return getInvoice(env.DB, workspaceId, invoiceId);
}

/**
 * Run by the cron: every paid period that ended without a change booked is renewed for the next month, charged to
 * the newest card with the usage credits applied first. A refused renewal is tried again on its schedule
 * (RETRY_AFTER_FIRST_FAILURE_MS); after the last try only the owner's "pay now" charges it. A workspace an operator
 * moved off the paid plan meanwhile is not renewed. `only` limits it to one workspace (the sandbox's test clock).
 */
export async function renewSubscriptions(env: BillingEnv, gateway: PaymentGateway, now: number = Date.now(), only?: string): Promise<{ renewed: number; refused: number }> {
  const due = await database(env.DB)
    .select()
    .from(subscriptions)
    .where(and(isNull(subscriptions.pendingPlan), lte(subscriptions.currentPeriodEnd, now), only ? eq(subscriptions.workspaceId, only) : undefined))
    .limit(RENEWALS_PER_RUN)
    .all();
  const outcome = { renewed: 0, refused: 0 };
  for (const subscription of due) {
    const plan = (await workspaceRow(env.DB, subscription.workspaceId))?.plan;
    const price = plan ? PLAN_PRICES[plan] : null;
    if (!plan || !price) continue;
    const existing = await renewalInvoice(env.DB, subscription.workspaceId, subscription.currentPeriodEnd);
    // Paid already, or refused and not yet due again (or out of automatic tries): nothing to charge this minute.
    if (existing && (existing.status !== "OPEN" || (existing.attempts > 0 && (existing.nextAttemptAt === null || existing.nextAttemptAt > now)))) continue;
    const overage = existing ? undefined : await overageOf(env.DB, subscription.workspaceId, plan, subscription.currentPeriodStart, subscription.currentPeriodEnd);
    const invoice =
      existing ?? (await openInvoice(env.DB, { workspaceId: subscription.workspaceId, plan, kind: "RENEWAL", ...periodFrom(subscription.currentPeriodEnd), supplyAmount: price, overage }, now));
    try {
      await chargeRenewal(env, gateway, invoice, now);
      outcome.renewed++;
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      outcome.refused++;
      log("warn", "renewal-refused", { workspaceId: subscription.workspaceId, invoiceId: invoice.id, code: err.code });
    }
  }
  return outcome;
}
