import { CHANGES_UNIT_INDEX } from "../results/changes";
import { type FinishedUnits, finishedUnits, type JobRow } from "./store";

/**
 * What a job's results serve: its finished units, or, for an incremental job, its stored changes once it succeeded
 * and nothing before (they are known only then).
 */
export async function resultUnits(d1: D1Database, job: JobRow): Promise<FinishedUnits> {
  if (!job.sinceJobId) return finishedUnits(d1, job.id);
  if (job.status !== "SUCCEEDED") return { units: [], recordCount: 0 };
  return {
    units: [
      { unitIndex: CHANGES_UNIT_INDEX, recordCount: job.recordCount, resultId: job.changesResultId, resultUnit: null, jsonOffset: 0, jsonEnd: null, csvOffset: job.changesCsvOffset ?? 0, csvEnd: null },
    ],
    recordCount: job.recordCount,
  };
}
