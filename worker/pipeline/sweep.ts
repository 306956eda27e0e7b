import { jobError } from "../../collectors/job-failures";
import { orphanedJobs, overdueJobs, stalledJobs, type SweptJob } from "../jobs/store";
import type { PipelineDeps } from "./ports";
import { releaseJobLeases } from "./released-leases";

/** A job still PENDING after this long was never picked up (lost message, consumer down). */
export const PENDING_ORPHAN_MS = 10 * 60_000;
/** A RUNNING job with no progress for this long has lost its unit chain; longer than any retry delay. */
export const STALL_MS = 3 * 60_000;

/**
 * The scheduled sweep: fails jobs past their wait budget (JOB_TIMEOUT) and
 * jobs that never started (PENDING_ORPHAN), and restarts stalled unit chains.
 */
export async function sweep(d1: D1Database, deps: PipelineDeps): Promise<{ timedOut: number; orphaned: number; resumed: number }> {
  const now = deps.now();

  const fail = async (jobs: SweptJob[], code: "JOB_TIMEOUT" | "PENDING_ORPHAN") => {
    let count = 0;
    for (const job of jobs) {
      if (!(await deps.jobs.failed(job.id, jobError(code), now))) continue;
      count++;
      await releaseJobLeases(deps, [job]);
    }
    return count;
  };

  const timedOut = await fail(await overdueJobs(d1, now), "JOB_TIMEOUT");
  const orphaned = await fail(await orphanedJobs(d1, now - PENDING_ORPHAN_MS), "PENDING_ORPHAN");
  let resumed = 0;
  for (const job of await stalledJobs(d1, now - STALL_MS)) if (await deps.jobs.restarted(job, now)) resumed++;
  return { timedOut, orphaned, resumed };
}
