import { and, eq, isNotNull, lte } from "drizzle-orm";
import { database } from "../../platform/database/client";
import { type PLANS } from "../workspaces/tables";
import { subscriptions } from "./tables";
import { ApiError } from "../../platform/errors/api-error";
import { planStatement } from "../workspaces/store";

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
 * subscription ends (its row goes: a FREE workspace pays for nothing). Each in one transaction with the plan itself.
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
    await d1.batch([
      plan === "FREE"
        ? d1.prepare("DELETE FROM subscriptions WHERE workspace_id = ? AND pending_plan = 'FREE'").bind(row.workspaceId)
        : d1.prepare("UPDATE subscriptions SET pending_plan = NULL, updated_at = ? WHERE workspace_id = ?").bind(now, row.workspaceId),
      planStatement(d1, row.workspaceId, plan),
    ]);
  }
  return due.length;
}

/** Ends a workspace's paid period at `now` (the sandbox's test clock); false when it has no subscription. */
export async function endPeriodAt(d1: D1Database, workspaceId: string, now: number): Promise<boolean> {
  const done = await database(d1).update(subscriptions).set({ currentPeriodEnd: now, updatedAt: now }).where(eq(subscriptions.workspaceId, workspaceId)).returning({ id: subscriptions.workspaceId });
  return done.length === 1;
}
