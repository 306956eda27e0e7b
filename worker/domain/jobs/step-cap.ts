import { and, count, eq, gte, isNotNull, sql } from "drizzle-orm";
import { database } from "../../platform/database/client";
import type { JobBilling } from "../workspaces/job-billing";
import { kstMonthBounds } from "./kst-month";
import { markedSince } from "./plan-commits";
import { jobPlans, jobs, taskUnits } from "./tables";

/**
 * Scraping steps (task units collected) of a billing workspace's jobs since `since`, for its plan's monthly step cap:
 * the units still stored (marked committed in their job's plan, or with a DONE row: plan-commits.ts), and those of jobs whose results were purged (their rows are gone, docs/retention.md) by
 * the job's count, in the month it finished. So deleting results never gives steps back; a purged job that ran
 * across the month's start counts wholly in the later month, more rather than less.
 */
export async function stepsUsedSince(d1: D1Database, billingWorkspaceId: string, since: number): Promise<number> {
  const db = database(d1);
  const [marked, stored, purged] = await db.batch([
    db
      .select({ used: sql<number>`coalesce(sum(${markedSince(jobPlans.units, since)}), 0)` })
      .from(jobPlans)
      .innerJoin(jobs, eq(jobs.id, jobPlans.jobId))
      .where(eq(jobs.billingWorkspaceId, billingWorkspaceId)),
    db
      .select({ used: count() })
      .from(taskUnits)
      .innerJoin(jobs, eq(jobs.id, taskUnits.jobId))
      .where(and(eq(jobs.billingWorkspaceId, billingWorkspaceId), eq(taskUnits.status, "DONE"), gte(taskUnits.updatedAt, since))),
    db
      .select({ used: sql<number>`coalesce(sum(${jobs.completedTaskCount}), 0)` })
      .from(jobs)
      .where(and(eq(jobs.billingWorkspaceId, billingWorkspaceId), isNotNull(jobs.resultsPurgedAt), gte(jobs.finishedAt, since))),
  ]);
  return (marked[0]?.used ?? 0) + (stored[0]?.used ?? 0) + (purged[0]?.used ?? 0);
}

/** Scraping steps the billing workspace's plan still allows this KST month; null when its plan has no step cap. */
export async function monthlyStepsLeft(d1: D1Database, billing: JobBilling, now: number): Promise<number | null> {
  if (billing.monthlyStepCap === null) return null;
  return billing.monthlyStepCap - (await stepsUsedSince(d1, billing.billingWorkspaceId, kstMonthBounds(now).start));
}
