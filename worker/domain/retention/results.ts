import { publishJob } from "../jobs/board";
import { type PurgeEnv, purgeResultRows, resultsDue } from "../jobs/results-rows";
import { deleteStoredResults } from "../results/purge";

/**
 * Jobs whose results one batch purges: each costs an R2 list, an R2 delete and a D1 batch, so a run (a few batches)
 * stays far inside a cron invocation's subrequests beside everything else the cron does.
 */
export const RESULTS_PURGE_BATCH = 25;
export const RESULTS_PURGE_BATCHES_PER_RUN = 4;

/**
 * One batch: purges up to `limit` jobs whose results expired or were deleted and are still stored (jobs/results-rows.ts
 * resultsDue), the objects first (results/purge.ts) so a failure midway leaves the rows that lead the next run back to
 * them. A job whose results were deleted early is shown again to pollers, as its deletion (credentials' bulk one) did
 * not. Returns how many it purged.
 */
export async function purgeDueResults(env: PurgeEnv, limit: number, now: number): Promise<number> {
  const due = await resultsDue(env.DB, limit, now);
  for (const job of due) {
    await deleteStoredResults(env.RESULTS, job.id);
    await purgeResultRows(env.DB, job.id, now);
    if (job.resultsDeletedReason) await publishJob(env, job);
  }
  return due.length;
}

/**
 * Run by the cron: removes results past their expiry, or deleted early, in bounded batches; more than a run's worth
 * carries over to the next minute. Returns how many jobs' results it removed.
 */
export async function purgeExpiredResults(env: PurgeEnv, now: number = Date.now(), batch = RESULTS_PURGE_BATCH): Promise<number> {
  let purged = 0;
  for (let run = 0; run < RESULTS_PURGE_BATCHES_PER_RUN; run++) {
    const count = await purgeDueResults(env, batch, now);
    purged += count;
    if (count < batch) break;
  }
  return purged;
}
