import { type PurgeEnv, purgeDueResults } from "../jobs/results-purge";

/**
 * Jobs whose results one batch purges: each costs an R2 list, an R2 delete and a D1 batch, so a run (a few batches)
 * stays far inside a cron invocation's subrequests beside everything else the cron does.
 */
export const RESULTS_PURGE_BATCH = 25;
export const RESULTS_PURGE_BATCHES_PER_RUN = 4;

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
