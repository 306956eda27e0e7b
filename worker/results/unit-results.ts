import type { z } from "zod";
import type { FinishedUnit, StoredUnit } from "../jobs/store";
import { csvColumns, csvRecordRows } from "./csv-format";
import { ARRAY_ITEM_LINES, arrayItemLine } from "./array-item-lines";
import { unitResultsKey } from "./keys";

/** The two halves of a unit's object: its JSON lines, then its ready-made CSV rows. */
export type UnitPart = "json" | "csv";

const encoder = new TextEncoder();

/**
 * Stores a unit's validated records as one object, JSON lines followed by
 * the same records as CSV rows, so both exports are byte streams of stored
 * parts rather than a parse-and-format pass over every record on each
 * download, at one R2 write per unit (none for a unit without records). The
 * returned object id and offset are committed with the unit, so a read finds
 * either half without asking R2 where it starts.
 */
export async function storeUnitResults(bucket: R2Bucket, jobId: string, unitIndex: number, record: z.ZodObject, records: Record<string, unknown>[]): Promise<StoredUnit> {
  if (records.length === 0) return { recordCount: 0, resultId: null, csvOffset: 0 };
  const lines = encoder.encode(records.map(arrayItemLine).join(""));
  const csv = encoder.encode(csvRecordRows(csvColumns(record), records));
  const body = new Uint8Array(lines.byteLength + csv.byteLength);
  body.set(lines);
  body.set(csv, lines.byteLength);
  const resultId = crypto.randomUUID();
  await bucket.put(unitResultsKey(jobId, unitIndex, resultId), body, { httpMetadata: { contentType: ARRAY_ITEM_LINES } });
  return { recordCount: records.length, resultId, csvOffset: lines.byteLength };
}

/**
 * One half of a committed unit's object, by a ranged read (its media type
 * says how its JSON lines end), short of its last `shortBy` bytes if asked.
 * A unit without records stored nothing to read.
 */
export async function unitPart(bucket: R2Bucket, jobId: string, unit: FinishedUnit, part: UnitPart, shortBy = 0): Promise<R2ObjectBody | null> {
  if (unit.resultId === null) return null;
  const range = part === "json" ? { offset: 0, length: unit.csvOffset - shortBy } : { offset: unit.csvOffset };
  return bucket.get(unitResultsKey(jobId, unit.unitIndex, unit.resultId), { range });
}

/** Whether the object's JSON lines end with the array's comma (stored since ARRAY_ITEM_LINES). */
export const holdsArrayItems = (object: R2ObjectBody): boolean => object.httpMetadata?.contentType === ARRAY_ITEM_LINES;
