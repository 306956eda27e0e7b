import { CHANGES_UNIT_INDEX } from "../results/changes";
import { resultsDeleted, resultsGone, storedExpiry } from "./results-expiry";
import { type FinishedUnits, finishedUnits, type JobRow } from "./store";

/** A job's results as served, with the expiry D1 has for them (a deletion moves it: results-at-edge.ts keys on it). */
export interface ServedUnits extends FinishedUnits {
  resultsExpireAt: number | null;
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
  if (units) return { ...units, resultsExpireAt };
  if (job.status !== "SUCCEEDED") return { units: [], recordCount: 0, resultsExpireAt };
  return {
    units: [
      { unitIndex: CHANGES_UNIT_INDEX, recordCount: job.recordCount, resultId: job.changesResultId, resultUnit: null, jsonOffset: 0, jsonEnd: null, csvOffset: job.changesCsvOffset ?? 0, csvEnd: null },
    ],
    recordCount: job.recordCount,
    resultsExpireAt,
  };
}
