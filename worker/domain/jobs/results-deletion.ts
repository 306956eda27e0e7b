import { and, eq, gt, inArray, isNull, or } from "drizzle-orm";
import { database } from "../../platform/database/client";
import { ApiError } from "../../platform/errors/api-error";
import { isoTime } from "../../platform/lib/iso-time";
import { publishJob } from "./board";
import { type PurgeEnv, purgeJobResults } from "./results-purge";
import { findJobById, isFinished, type JobRow } from "./store";
import { type ResultsDeletionReason, jobs } from "./tables";

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
 * Deletes a finished job's results now: from then on every reader gets 410 (jobs/result-units.ts), and its objects
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
 * Deletes the results of every finished job a deleted credential collected (DELETE /credentials/{id}?deleteResults=true):
 * refused to readers at once, removed by the cron in its batches (domain/retention/results.ts). Returns how many jobs.
 */
export async function deleteCredentialResults(d1: D1Database, workspaceId: string, credentialId: string, now: number): Promise<number> {
  const marked = await database(d1)
    .update(jobs)
    .set({ resultsExpireAt: now, resultsDeletedReason: "CREDENTIAL_DELETED", updatedAt: now })
    .where(and(eq(jobs.workspaceId, workspaceId), eq(jobs.credentialId, credentialId), inArray(jobs.status, ["SUCCEEDED", "FAILED"]), stillKept(now)));
  return marked.meta.changes;
}
