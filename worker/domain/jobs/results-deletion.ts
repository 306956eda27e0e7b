import { and, eq, gt, inArray, isNull, or } from "drizzle-orm";
import { database } from "../../platform/database/client";
import { ApiError } from "../../platform/errors/api-error";
import { isoTime } from "../../platform/lib/iso-time";
import { publishJob } from "./board";
import { type PurgeEnv, purgeJobResults } from "./results-purge";
import { CREDENTIAL_IDS_PER_STATEMENT, findJobById, hasActiveJob, isFinished, type JobRow } from "./store";
import { credentialLineage } from "../credentials/lineage";
import { assertLineageIdle } from "../credentials/retirement";
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
