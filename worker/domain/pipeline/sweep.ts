import { jobError } from "../../../contracts/job-failures";
import { orphanedJobs, overdueJobs, stalledJobs, type SweptJob, unplannedJobs } from "../jobs/store";
import type { PipelineDeps } from "./ports";
import { releaseJobLeases } from "./released-leases";

/** A job still PENDING after this long has probably lost its plan message (a failed send, a dropped delivery): it is sent again, once. */
export const PLAN_RESEND_MS = 2 * 60_000;
/** A job still PENDING after this long never started, even with its plan sent again (queue or consumer down). */
export const PENDING_ORPHAN_MS = 10 * 60_000;
/** A RUNNING job with no progress for this long has lost its unit chain; longer than any retry delay. */
export const STALL_MS = 3 * 60_000;

/** When the sweep acts; the constants above unless the local stack shortens them for fault tests. */
export interface SweepPolicy {
  planResendMs: number;
  orphanMs: number;
  stallMs: number;
}

/**
 * The scheduled sweep: fails jobs past their wait budget (JOB_TIMEOUT) and
 * jobs that never started (PENDING_ORPHAN), and sends the lost work of the
 * others again: the plan of a job left PENDING (once), the lowest waiting
 * unit of a stalled chain. `resumed` counts both.
 */
export async function sweep(d1: D1Database, deps: PipelineDeps): Promise<{ timedOut: number; orphaned: number; resumed: number }> {
  const now = deps.now();
  const policy = deps.sweep;

  const fail = async (jobs: SweptJob[], code: "JOB_TIMEOUT" | "PENDING_ORPHAN") => {
    let count = 0;
    for (const job of jobs) {
      if (!(await deps.jobs.failed(job, jobError(code), now))) continue;
      count++;
      await releaseJobLeases(deps, [job]);
    }
    return count;
  };

  const timedOut = await fail(await overdueJobs(d1, now), "JOB_TIMEOUT");
  const orphaned = await fail(await orphanedJobs(d1, now - policy.orphanMs), "PENDING_ORPHAN");
  let resumed = 0;
  for (const job of await unplannedJobs(d1, now - policy.planResendMs)) if (await deps.jobs.planResent(job, now)) resumed++;
  for (const job of await stalledJobs(d1, now - policy.stallMs)) if (await deps.jobs.restarted(job, now)) resumed++;
  return { timedOut, orphaned, resumed };
}
