import type { z } from "zod";
import type { FinishedUnit, StoredUnit } from "../jobs/store";
import { csvColumns, csvRecordRows } from "./csv-format";
import { unitResultsKey } from "./keys";

/** The two halves of a unit's object: its NDJSON lines, then its ready-made CSV rows. */
export type UnitPart = "ndjson" | "csv";

const encoder = new TextEncoder();

/**
 * Stores a unit's validated records as one object, NDJSON lines followed by
 * the same records as CSV rows, so a CSV export is a byte stream of stored
 * rows rather than a parse-and-format pass over every record on each
 * download, at one R2 write per unit (none for a unit without records). The
 * returned object id and offset are committed with the unit, so a read finds
 * either half without asking R2 where it starts.
 */
export async function storeUnitResults(bucket: R2Bucket, jobId: string, unitIndex: number, record: z.ZodObject, records: Record<string, unknown>[]): Promise<StoredUnit> {
  if (records.length === 0) return { recordCount: 0, resultId: null, csvOffset: 0 };
  const ndjson = encoder.encode(records.map((r) => `${JSON.stringify(r)}\n`).join(""));
  const csv = encoder.encode(csvRecordRows(csvColumns(record), records));
  const body = new Uint8Array(ndjson.byteLength + csv.byteLength);
  body.set(ndjson);
  body.set(csv, ndjson.byteLength);
  const resultId = crypto.randomUUID();
  await bucket.put(unitResultsKey(jobId, unitIndex, resultId), body);
  return { recordCount: records.length, resultId, csvOffset: ndjson.byteLength };
}

/**
 * One half of a committed unit's object as a stream, by a ranged read. A
 * unit without records stored nothing to read.
 */
export async function unitPart(bucket: R2Bucket, jobId: string, unit: FinishedUnit, part: UnitPart): Promise<ReadableStream<Uint8Array> | null> {
  if (unit.resultId === null) return null;
  const range = part === "ndjson" ? { offset: 0, length: unit.csvOffset } : { offset: unit.csvOffset };
  const object = await bucket.get(unitResultsKey(jobId, unit.unitIndex, unit.resultId), { range });
  return object?.body ?? null;
}
