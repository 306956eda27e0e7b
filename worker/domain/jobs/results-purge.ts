import { and, eq, isNotNull, isNull, lte } from "drizzle-orm";
import { database } from "../../platform/database/client";
import { deleteStoredResults } from "../results/purge";
import { publishJob } from "./board";
import type { JobRow } from "./store";
import { jobs, taskUnits } from "./tables";

export type PurgeEnv = Pick<Env, "DB" | "RESULTS" | "JOB_BOARD">;

/**
 * Removes a job's stored results, then its units' rows, and marks it purged: its row, what the job was, stays. The
 * objects go first, so a failure midway leaves the rows that lead the next run back to them; readers were refused
 * from the expiry on (jobs/result-units.ts), whatever is left.
 */
export async function purgeJobResults(env: PurgeEnv, jobId: string, now: number): Promise<void> {
  await deleteStoredResults(env.RESULTS, jobId);
  const db = database(env.DB);
  await db.batch([db.delete(taskUnits).where(eq(taskUnits.jobId, jobId)), db.update(jobs).set({ resultsPurgedAt: now }).where(eq(jobs.id, jobId))]);
}

/**
 * The cron's share (domain/retention/results.ts): purges up to `limit` jobs whose results expired or were deleted and
 * are still stored, soonest expired first. A job whose results were deleted early is shown again to pollers, as its
 * deletion (credentials' bulk one) did not. Returns how many it purged.
 */
export async function purgeDueResults(env: PurgeEnv, limit: number, now: number): Promise<number> {
  const due: JobRow[] = await database(env.DB)
    .select()
    .from(jobs)
    .where(and(isNull(jobs.resultsPurgedAt), isNotNull(jobs.resultsExpireAt), lte(jobs.resultsExpireAt, now)))
    .orderBy(jobs.resultsExpireAt)
    .limit(limit)
    .all();
  for (const job of due) {
    await purgeJobResults(env, job.id, now);
    if (job.resultsDeletedReason) await publishJob(env, job);
  }
  return due.length;
}
