import { and, eq, isNotNull, lte } from "drizzle-orm";
import { database, statementOf } from "../../platform/database/client";
import { type PLANS } from "../workspaces/tables";
import { subscriptions } from "./tables";
import { ApiError } from "../../platform/errors/api-error";
import { planStatement, workspaceRow } from "../workspaces/store";
import { failedOn, invoiceWrites } from "./invoices";
import { PLAN_OVERAGE } from "../workspaces/plans";
import { jobsCreatedBetween } from "../jobs/store";

export type SubscriptionRow = typeof subscriptions.$inferSelect;
type Plan = (typeof PLANS)[number];

export async function findSubscription(d1: D1Database, workspaceId: string): Promise<SubscriptionRow | null> {
  return (await database(d1).select().from(subscriptions).where(eq(subscriptions.workspaceId, workspaceId)).get()) ?? null;
}

/** Books a move to `plan` for the end of the paid period (a downgrade, or FREE for a cancellation). */
export async function bookChange(d1: D1Database, workspaceId: string, plan: Plan, now: number = Date.now()): Promise<void> {
  await database(d1).update(subscriptions).set({ pendingPlan: plan, updatedAt: now }).where(eq(subscriptions.workspaceId, workspaceId));
}

/** Withdraws the booked change: the plan renews as it is. 400 NO_PENDING_PLAN_CHANGE when none is booked. */
export async function withdrawChange(d1: D1Database, workspaceId: string, now: number = Date.now()): Promise<void> {
  const done = await database(d1)
    .update(subscriptions)
    .set({ pendingPlan: null, updatedAt: now })
    .where(and(eq(subscriptions.workspaceId, workspaceId), isNotNull(subscriptions.pendingPlan)))
    .returning({ workspaceId: subscriptions.workspaceId });
  if (done.length === 0) throw new ApiError("NO_PENDING_PLAN_CHANGE");
}

/**
 * Run by the cron: a paid period that ended with a change booked moves the workspace to the booked plan; to FREE, the
 * subscription ends (its row goes: a FREE workspace pays for nothing). The period is billed for what it used all the
 * same: its jobs past the allowance of the plan it had go on an OVERAGE invoice (charged by renewSubscriptions,
 * worker/domain/billing/renewal.ts), opened in the same transaction as the move, so no move happens without its bill.
 * `only` limits it to one workspace (the sandbox's test clock, worker/domain/billing/test-clock.ts).
 */
export async function applyBookedChanges(d1: D1Database, now: number = Date.now(), only?: string): Promise<number> {
  const due = await database(d1)
    .select()
    .from(subscriptions)
    .where(and(isNotNull(subscriptions.pendingPlan), lte(subscriptions.currentPeriodEnd, now), only ? eq(subscriptions.workspaceId, only) : undefined))
    .limit(100)
    .all();
  for (const row of due) {
    const plan = row.pendingPlan!;
    const had = (await workspaceRow(d1, row.workspaceId))?.plan;
    const overage = had ? await overageOf(d1, row.workspaceId, had, row.currentPeriodStart, row.currentPeriodEnd) : { jobs: 0, amount: 0 };
    const bill =
      had && overage.jobs > 0
        ? (await invoiceWrites(d1, { workspaceId: row.workspaceId, plan: had, kind: "OVERAGE", periodStart: row.currentPeriodStart, periodEnd: row.currentPeriodEnd, supplyAmount: 0, overage }, now)).writes
        : [];
    try {
      await d1.batch([
        ...bill.map((write) => statementOf(d1, write)),
        plan === "FREE"
          ? statementOf(d1, database(d1).delete(subscriptions).where(and(eq(subscriptions.workspaceId, row.workspaceId), eq(subscriptions.pendingPlan, "FREE"))))
          : statementOf(d1, database(d1).update(subscriptions).set({ pendingPlan: null, updatedAt: now }).where(eq(subscriptions.workspaceId, row.workspaceId))),
        planStatement(d1, row.workspaceId, plan),
      ]);
    } catch (err) {
      // Another run (the cron beside the test clock) billed this period and moved the workspace first.
      if (!failedOn(err, "UNIQUE")) throw err;
    }
  }
  return due.length;
}

/** Ends a workspace's paid period at `now` (the sandbox's test clock); false when it has no subscription. */
export async function endPeriodAt(d1: D1Database, workspaceId: string, now: number): Promise<boolean> {
  const done = await database(d1).update(subscriptions).set({ currentPeriodEnd: now, updatedAt: now }).where(eq(subscriptions.workspaceId, workspaceId)).returning({ id: subscriptions.workspaceId });
  return done.length === 1;
}

/** Ends a subscription whose period ended on a plan no longer paid for (an operator moved the workspace): nothing renews it. */
export async function endSubscription(d1: D1Database, workspaceId: string, periodEnd: number): Promise<void> {
  await database(d1).delete(subscriptions).where(and(eq(subscriptions.workspaceId, workspaceId), eq(subscriptions.currentPeriodEnd, periodEnd)));
}

/**
 * The jobs past the plan's monthly allowance in a paid period, and their price. Billed once the period ends, whatever
 * follows it: with the renewal, or on an OVERAGE invoice of its own when none follows (a cancellation, a downgrade).
 */
export async function overageOf(d1: D1Database, workspaceId: string, plan: Plan, periodStart: number, periodEnd: number): Promise<{ jobs: number; amount: number }> {
  const terms = PLAN_OVERAGE[plan];
  if (!terms) return { jobs: 0, amount: 0 };
  const jobs = Math.max(0, (await jobsCreatedBetween(d1, workspaceId, periodStart, periodEnd)) - terms.includedJobs);
  return { jobs, amount: jobs * terms.perJob };
}
