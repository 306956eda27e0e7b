import type { WorkspaceRow } from "./store";

export type Plan = WorkspaceRow["plan"];

/**
 * What each plan allows per KST month (docs/plans.md). A scraping step is one
 * task unit collected (one target over one date segment, or one list);
 * concurrent jobs are unfinished ones (PENDING, RUNNING), and concurrent scheduled
 * jobs those of them a schedule made (a run over the cap waits for a slot:
 * domain/schedule-runs/run.ts). Null means unlimited.
 */
export const PLAN_LIMITS: Record<Plan, { monthlyJobs: number | null; monthlyTaskSteps: number | null; concurrentJobs: number | null; concurrentScheduledJobs: number | null }> = {
  FREE: { monthlyJobs: 300, monthlyTaskSteps: 500, concurrentJobs: 10, concurrentScheduledJobs: 10 },
  // Schedules run with nobody watching: 100 of them at one minute would otherwise all log in at once.
  PRO: { monthlyJobs: null, monthlyTaskSteps: null, concurrentJobs: null, concurrentScheduledJobs: 20 },
  // Our own and our partners' test workspaces, given by an operator (operators/workspace-actions.ts), never bought.
  INTERNAL: { monthlyJobs: null, monthlyTaskSteps: null, concurrentJobs: null, concurrentScheduledJobs: null },
};

/**
 * What each plan costs a month before VAT, in won (VAT, 10%, is added on the invoice: worker/domain/billing/invoices.ts);
 * null for a plan nobody buys: INTERNAL is an operator's to give (docs/billing.md).
 */
export const PLAN_PRICES: Record<Plan, number | null> = { FREE: 0, PRO: 99_000, INTERNAL: null };

export const PLAN_NAMES: Record<Plan, string> = { FREE: "무료", PRO: "프로", INTERNAL: "내부" };

/**
 * A paid plan's monthly allowance of jobs and what each job past it costs before VAT, in won, billed with the next
 * month's renewal (worker/domain/billing/renewal.ts); null for a plan without overage.
 */
export const PLAN_OVERAGE: Record<Plan, { includedJobs: number; perJob: number } | null> = { FREE: null, PRO: { includedJobs: 5_000, perJob: 30 }, INTERNAL: null };

/**
 * How many days a finished job's results are kept (docs/retention.md): `defaultDays` unless the workspace chose
 * otherwise, never more than `maxDays`. Longer keeping is what a paid plan buys; nobody's results are kept for ever.
 */
export const PLAN_RESULTS_RETENTION: Record<Plan, { defaultDays: number; maxDays: number }> = {
  FREE: { defaultDays: 7, maxDays: 30 },
  PRO: { defaultDays: 30, maxDays: 365 },
  INTERNAL: { defaultDays: 30, maxDays: 365 },
};

/**
 * What one workspace may put in its request log a KST day, in bytes of stored rows (docs/request-logs.md, "Bounds"),
 * and how many API keys it may hold live at once (docs/plans.md). Both protect the one database every tenant writes to:
 * at these numbers the worst workspace holds at most 30 days' budget (docs/capacity.md).
 */
export const PLAN_REQUEST_LOG: Record<Plan, { bytesPerDay: number; liveApiKeys: number }> = {
  FREE: { bytesPerDay: 5 * 1024 * 1024, liveApiKeys: 10 },
  PRO: { bytesPerDay: 50 * 1024 * 1024, liveApiKeys: 50 },
  INTERNAL: { bytesPerDay: 50 * 1024 * 1024, liveApiKeys: 50 },
};
