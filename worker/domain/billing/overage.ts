import { type Plan, PLAN_OVERAGE } from "../workspaces/plans";
import { jobsCreatedBetween } from "../jobs/store";

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
