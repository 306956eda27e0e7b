import type { Context } from "hono";
import { and, eq, gt, inArray, isNotNull, isNull, lte, or } from "drizzle-orm";
import { database } from "../../platform/database/client";
import { ApiError } from "../../platform/errors/api-error";
import { isoTime } from "../../platform/lib/iso-time";
import { changesUnits } from "../results/changes";
import { withExportsDropped } from "../results/edge-cache";
import { resultsDeleted, resultsGone, type ServedUnits } from "../results/job-results";
import { deleteStoredResults } from "../results/purge";
import type { FinishedUnit, FinishedUnits } from "../results/unit-results";
import { publishJob } from "./board";
import { CREDENTIAL_IDS_PER_STATEMENT, findJobById, hasActiveJob, isFinished, type JobRow } from "./store";
import { credentialLineage } from "../credentials/lineage";
import { assertLineageIdle } from "../credentials/retirement";
import { jobPlans, type ResultsDeletionReason, jobs, taskUnits } from "./tables";
import { jobKind } from "./views";

/*
 * What the jobs tables hold of a job's results (the units naming their objects, their expiry, deletion and purge) is
 * read and written here, by the tables' owner; results/ sits below and takes what is read here as parameters.
 */

export type PurgeEnv = Pick<Env, "DB" | "RESULTS" | "JOB_BOARD">;

type Expiry = Pick<JobRow, "resultsExpireAt" | "resultsDeletedReason">;

/** The job's expiry as D1 has it now: a finished row kept in an isolate (jobs/board.ts) may predate a deletion. */
export async function storedExpiry(d1: D1Database, jobId: string): Promise<Expiry> {
  const row = await database(d1).select({ resultsExpireAt: jobs.resultsExpireAt, resultsDeletedReason: jobs.resultsDeletedReason }).from(jobs).where(eq(jobs.id, jobId)).get();
  return row ?? { resultsExpireAt: null, resultsDeletedReason: null };
}

/**
 * Units whose records are committed, in unit order: the snapshot a results read streams. Those marked in the job's
 * plan and those with a DONE row (committed before stop 68, plan-commits.ts), read in one batch.
 */
export async function finishedUnits(d1: D1Database, jobId: string): Promise<FinishedUnits> {
  const db = database(d1);
  const [plans, rows] = await db.batch([
    db.select({ units: jobPlans.units }).from(jobPlans).where(eq(jobPlans.jobId, jobId)),
    db
      .select({ unitIndex: taskUnits.unitIndex, recordCount: taskUnits.recordCount, resultId: taskUnits.resultId, resultUnit: taskUnits.resultUnit, jsonOffset: taskUnits.jsonOffset, jsonEnd: taskUnits.jsonEnd, csvOffset: taskUnits.csvOffset, csvEnd: taskUnits.csvEnd })
      .from(taskUnits)
      .where(and(eq(taskUnits.jobId, jobId), eq(taskUnits.status, "DONE")))
      .orderBy(taskUnits.unitIndex),
  ]);
  const marked = (plans[0]?.units ?? []).flatMap(({ committed }, unitIndex): FinishedUnit[] => {
    if (!committed) return [];
    const { at: _at, ...stored } = committed;
    return [{ unitIndex, ...stored }];
  });
  // A DONE row has its record count and CSV offset: its commit set them.
  const results = [...marked, ...(rows as FinishedUnit[])].sort((a, b) => a.unitIndex - b.unitIndex);
  return { units: results, recordCount: results.reduce((sum, r) => sum + r.recordCount, 0) };
}

/**
 * What a job's results serve: its finished units, or, for an incremental job, its stored changes once it succeeded
 * and nothing before (they are known only then). Results past their expiry, or deleted, are 410
 * DATA_JOB_RESULTS_DELETED for every reader (JSON, CSV, download links, deliveries: docs/retention.md).
 */
export async function resultUnits(d1: D1Database, job: JobRow, now = Date.now()): Promise<ServedUnits> {
  if (resultsGone(job, now)) throw resultsDeleted(job);
  const [stored, units] = await Promise.all([storedExpiry(d1, job.id), job.sinceJobId ? null : finishedUnits(d1, job.id)]);
  if (resultsGone(stored, now)) throw resultsDeleted(stored);
  const { resultsExpireAt } = stored;
  const kind = jobKind(job);
  if (units) return { ...units, resultsExpireAt, kind };
  if (job.status !== "SUCCEEDED") return { units: [], recordCount: 0, resultsExpireAt, kind };
  return { ...changesUnits(job), resultsExpireAt, kind };
}

/**
 * Removes a job's stored results, then its units' rows, and marks it purged: its row, what the job was, stays. The
 * objects go first, so a failure midway leaves the rows that lead the next run back to them; readers were refused
 * from the expiry on (resultUnits), whatever is left.
 */
export async function purgeJobResults(env: PurgeEnv, jobId: string, now: number): Promise<void> {
  await deleteStoredResults(env.RESULTS, jobId);
  await purgeResultRows(env.DB, jobId, now);
}

/** The rows' half of a purge (purgeJobResults): its objects are gone, so its units' rows and its plan go and the job is marked purged. */
export async function purgeResultRows(d1: D1Database, jobId: string, now: number): Promise<void> {
  const db = database(d1);
  await db.batch([
    db.delete(taskUnits).where(eq(taskUnits.jobId, jobId)),
    db.delete(jobPlans).where(eq(jobPlans.jobId, jobId)),
    db.update(jobs).set({ resultsPurgedAt: now }).where(eq(jobs.id, jobId)),
  ]);
}

/** Up to `limit` jobs whose results expired or were deleted and are still stored, soonest expired first: the cron's (domain/retention/results.ts). */
export function resultsDue(d1: D1Database, limit: number, now: number): Promise<JobRow[]> {
  return database(d1)
    .select()
    .from(jobs)
    .where(and(isNull(jobs.resultsPurgedAt), isNotNull(jobs.resultsExpireAt), lte(jobs.resultsExpireAt, now)))
    .orderBy(jobs.resultsExpireAt)
    .limit(limit)
    .all();
}

/** What a deletion of a job's results answers: which job, how many records went, when, and why. */
export interface ResultsDeletion {
  jobId: string;
  recordCount: number;
  deletedAt: string;
  reason: ResultsDeletionReason | "EXPIRED";
}

/** Results still served: no expiry yet (a row from before expiries), or one still ahead. */
const stillKept = (now: number) => or(isNull(jobs.resultsExpireAt), gt(jobs.resultsExpireAt, now));

const deletionOf = (row: JobRow): ResultsDeletion => ({
  jobId: row.id,
  recordCount: row.recordCount,
  deletedAt: isoTime(row.resultsExpireAt!),
  reason: row.resultsDeletedReason ?? "EXPIRED",
});

/**
 * Deletes a finished job's results now: from then on every reader gets 410 (resultUnits), and its objects
 * and units' rows go before this answers. Results deleted already (on request, with their credential, or expired)
 * answer that deletion instead, so calling again is harmless. A job still running is 409 DATA_JOB_NOT_FINISHED:
 * what it collects next would outlive the deletion.
 */
export async function deleteJobResults(env: PurgeEnv, job: JobRow, now: number): Promise<ResultsDeletion> {
  if (!isFinished(job)) throw new ApiError("DATA_JOB_NOT_FINISHED");
  await database(env.DB)
    .update(jobs)
    .set({ resultsExpireAt: now, resultsDeletedReason: "REQUESTED", updatedAt: now })
    .where(and(eq(jobs.id, job.id), inArray(jobs.status, ["SUCCEEDED", "FAILED"]), stillKept(now)));
  const row = (await findJobById(env.DB, job.id))!;
  await publishJob(env, row);
  if (row.resultsPurgedAt === null) await purgeJobResults(env, row.id, now);
  return deletionOf(row);
}

/**
 * Deletes the results of every finished job a credential collected, and those of every row of the same login it
 * superseded (credentials/lineage.ts): registering a login again moves it to a new id, and its jobs' data is the
 * login's whatever row they ran on. The one rule for DELETE /credentials/{id}?deleteResults=true and for a holder's
 * withdrawal; it takes the credential in any status, so the results of one already deleted or registered again can
 * still be deleted (calling again changes nothing). Refused to readers at once, removed by the cron in its batches
 * (domain/retention/results.ts). 404 CREDENTIAL_NOT_FOUND for an id not of the workspace; 409
 * CREDENTIAL_HAS_ACTIVE_CONNECTIONS while a job runs on the lineage, whose results would outlive the deletion.
 * Returns how many jobs' results it deleted.
 */
export async function deleteCredentialResults(d1: D1Database, workspaceId: string, credentialId: string, now: number): Promise<number> {
  const lineage = await credentialLineage(d1, workspaceId, credentialId);
  if (!lineage) throw new ApiError("CREDENTIAL_NOT_FOUND");
  await assertLineageIdle(d1, lineage, hasActiveJob);
  let deleted = 0;
  for (let i = 0; i < lineage.ids.length; i += CREDENTIAL_IDS_PER_STATEMENT) {
    const ids = lineage.ids.slice(i, i + CREDENTIAL_IDS_PER_STATEMENT);
    const marked = await database(d1)
      .update(jobs)
      .set({ resultsExpireAt: now, resultsDeletedReason: "CREDENTIAL_DELETED", updatedAt: now })
      .where(and(eq(jobs.workspaceId, workspaceId), inArray(jobs.credentialId, ids), inArray(jobs.status, ["SUCCEEDED", "FAILED"]), stillKept(now)));
    deleted += marked.meta.changes;
  }
  return deleted;
}

const deletedAlready = (err: unknown): null => {
  if (err instanceof ApiError && err.code === "DATA_JOB_RESULTS_DELETED") return null;
  throw err;
};

/** Deletes a job's results on request (deleteJobResults), and its exports kept at this location's edge with them (results/edge-cache.ts). */
export async function deleteResultsAndExports(c: Context, env: PurgeEnv, job: JobRow, now: number): Promise<ResultsDeletion> {
  const units = isFinished(job) ? await resultUnits(env.DB, job).catch(deletedAlready) : null;
  return withExportsDropped(c, job, units, () => deleteJobResults(env, job, now));
}
