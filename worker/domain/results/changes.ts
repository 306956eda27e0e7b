import { z } from "@hono/zod-openapi";
import { findSchema } from "../catalog/schemas";
import type { ResultsJob } from "./job-results";
import { CHANGES, changesBetween } from "./record-changes";
import { recordLineBatches } from "./record-lines";
import { type FinishedUnit, type FinishedUnits, type StoredUnit, storeUnitResults } from "./unit-results";

/**
 * The unit index an incremental job's changes are stored under: past any unit a job plans, so the object sits under
 * the job's results prefix like the units' (and goes with them) without ever taking a unit's key.
 */
export const CHANGES_UNIT_INDEX = 999_999;

/** The record of an incremental job: its schema's record and the extension field `change`, last in JSON and CSV. */
export function changedRecord(record: z.ZodObject): z.ZodObject {
  return record.extend({ change: z.enum(CHANGES).meta({ title: "변경" }) });
}

/** The record shape a job's results carry. */
export function resultRecord(job: Pick<ResultsJob, "schema" | "sinceJobId">): z.ZodObject {
  const { record } = findSchema(job.schema)!;
  return job.sinceJobId ? changedRecord(record) : record;
}

async function recordsOf(bucket: R2Bucket, jobId: string, units: FinishedUnit[]): Promise<Record<string, unknown>[]> {
  const records: Record<string, unknown>[] = [];
  for await (const lines of recordLineBatches(bucket, jobId, units)) for (const line of lines) records.push(JSON.parse(line) as Record<string, unknown>);
  return records;
}

/**
 * Computes and stores an incremental job's changes against its base's collected records (a base that was itself
 * incremental collected in full too), as one object shaped like a unit's. `finishedUnits` reads a job's finished
 * units (jobs/results-rows.ts): the job flow, above results, passes it.
 */
export async function storeChanges(
  env: { DB: D1Database; RESULTS: R2Bucket },
  job: ResultsJob,
  base: ResultsJob | null,
  finishedUnits: (d1: D1Database, jobId: string) => Promise<FinishedUnits>,
): Promise<StoredUnit> {
  const schema = findSchema(job.schema)!;
  const collected = async (of: ResultsJob) => ({
    range: { start: of.params.dateRangeStart as string, end: of.params.dateRangeEnd as string },
    records: await recordsOf(env.RESULTS, of.id, (await finishedUnits(env.DB, of.id)).units),
  });
  // A base that is gone leaves nothing to compare with: every record is added.
  const before = base ? await collected(base) : { range: { start: "", end: "" }, records: [] };
  const changes = changesBetween(schema.identity!, before, await collected(job));
  const [stored] = await storeUnitResults(env.RESULTS, job.id, changedRecord(schema.record), [{ unitIndex: CHANGES_UNIT_INDEX, records: changes }]);
  return stored!;
}

/** What a succeeded incremental job's results serve: its stored changes (storeChanges), as the one unit they are. */
export function changesUnits(job: { recordCount: number; changesResultId: string | null; changesCsvOffset: number | null }): FinishedUnits {
  return {
    units: [
      { unitIndex: CHANGES_UNIT_INDEX, recordCount: job.recordCount, resultId: job.changesResultId, resultUnit: null, jsonOffset: 0, jsonEnd: null, csvOffset: job.changesCsvOffset ?? 0, csvEnd: null },
    ],
    recordCount: job.recordCount,
  };
}
