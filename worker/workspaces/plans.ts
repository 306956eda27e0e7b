import type { WorkspaceRow } from "./store";

export type Plan = WorkspaceRow["plan"];

/**
 * What each plan allows per KST month (docs/plans.md). A scraping step is one
 * task unit collected (one target over one date segment, or one list);
 * concurrent jobs are unfinished ones (PENDING, RUNNING). Null means unlimited.
 */
export const PLAN_LIMITS: Record<Plan, { monthlyJobs: number | null; monthlyTaskSteps: number | null; concurrentJobs: number | null }> = {
  FREE: { monthlyJobs: 300, monthlyTaskSteps: 500, concurrentJobs: 10 },
  PRO: { monthlyJobs: null, monthlyTaskSteps: null, concurrentJobs: null },
  // Our own and our partners' test workspaces, given by an operator (operators/workspace-actions.ts), never bought.
  INTERNAL: { monthlyJobs: null, monthlyTaskSteps: null, concurrentJobs: null },
};
