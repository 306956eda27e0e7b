import { ApiError } from "../../platform/errors/api-error";
import { type Plan, PLAN_LIMITS } from "./plans";

/** Whose plan caps a workspace's jobs, and that plan's monthly job and scraping-step caps and concurrent jobs (null: unlimited). */
export interface JobBilling {
  billingWorkspaceId: string;
  /** When the billing workspace's renewal charge first failed; null while paid up (worker/domain/workspaces/past-due.ts). */
  pastDueSince: number | null;
  monthlyJobCap: number | null;
  monthlyStepCap: number | null;
  concurrentJobs: number | null;
  /** Of them, how many a schedule made may be unfinished at once. */
  concurrentScheduledJobs: number | null;
}

export const suspended = () =>
  new ApiError("WORKSPACE_ACCESS_DENIED", { message: "운영자가 이 워크스페이스의 이용을 정지했습니다. 고객 지원에 문의해 주세요." });

/** The workspace's billing row, for a caller to batch with its own reads; `jobBillingOf` reads the result. */
export function jobBillingStatement(d1: D1Database, workspaceId: string): D1PreparedStatement {
  // Raw: create-context.ts batches it with credentials' raw statement in one round trip, and its test counts reads by this text.
  return d1
    .prepare(
      `SELECT b.id AS billingWorkspaceId, b.monthly_job_cap AS monthlyJobCap, b.plan AS plan, coalesce(w.suspended_at, b.suspended_at) AS suspendedAt, b.past_due_since AS pastDueSince,
         b.results_retention_days AS resultsRetentionDays, w.revision AS revision, b.revision AS billingRevision,
         w.sandbox_only AS sandboxOnly
       FROM workspaces w JOIN workspaces b ON b.id = coalesce(w.billing_workspace_id, w.id) WHERE w.id = ?`,
    )
    .bind(workspaceId);
}

export type JobBillingRow = {
  billingWorkspaceId: string;
  monthlyJobCap: number | null;
  plan: Plan;
  suspendedAt: number | null;
  pastDueSince: number | null;
  /** The billing workspace's chosen results retention (tables.ts); a kept create context may hold an older one (docs/retention.md). */
  resultsRetentionDays: number | null;
  /** The two rows' revisions (tables.ts `revision`) as read. */
  revision: number;
  billingRevision: number;
  /**
   * 1 while the owner has not confirmed their e-mail (opensTo). No revision moves with it: it only ever turns 0, and
   * a kept context's refusal is decided again from a fresh read (jobs/create.ts).
   */
  sandboxOnly: number;
};

/** A suspended workspace, or a business whose partner is suspended, starts no job: WORKSPACE_ACCESS_DENIED. */
export function jobBillingOf(row: JobBillingRow | undefined | null, workspaceId: string): JobBilling {
  if (row?.suspendedAt) throw suspended();
  const limits = PLAN_LIMITS[row?.plan ?? "FREE"];
  return {
    billingWorkspaceId: row?.billingWorkspaceId ?? workspaceId,
    pastDueSince: row?.pastDueSince ?? null,
    // A cap agreed for this workspace overrides its plan's.
    monthlyJobCap: row?.monthlyJobCap ?? limits.monthlyJobs,
    monthlyStepCap: limits.monthlyTaskSteps,
    concurrentJobs: limits.concurrentJobs,
    concurrentScheduledJobs: limits.concurrentScheduledJobs,
  };
}

export async function jobBilling(d1: D1Database, workspaceId: string): Promise<JobBilling> {
  return jobBillingOf(await jobBillingStatement(d1, workspaceId).first<JobBillingRow>(), workspaceId);
}

/** SQL for: a workspace and its billing workspace (ids bound at the parameters named) are at these revisions; a missing row is at 0. */
export const revisionsHold = (workspace: string, billing: string, workspaceRevision: string, billingRevision: string) =>
  `coalesce((SELECT revision FROM workspaces WHERE id = ${workspace}), 0) = ${workspaceRevision} AND coalesce((SELECT revision FROM workspaces WHERE id = ${billing}), 0) = ${billingRevision}`;
