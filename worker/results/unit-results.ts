import type { z } from "zod";
import type { FinishedUnit } from "../jobs/store";
import { csvColumns, csvRecordRows } from "./csv-format";
import { ARRAY_ITEM_LINES, arrayItemLine } from "./array-item-lines";
import { unitResultsKey } from "./keys";

/** The two halves of a unit's bytes: its JSON lines, then its ready-made CSV rows. */
export type UnitPart = "json" | "csv";

/** A unit's validated records, collected and not yet stored. */
export interface CollectedUnit {
  unitIndex: number;
  records: Record<string, unknown>[];
}

const encoder = new TextEncoder();

/**
 * Stores units' validated records as one object, each unit's JSON lines
 * followed by the same records as CSV rows, so both exports are byte streams
 * of stored parts rather than a parse-and-format pass over every record on
 * each download, at one R2 write for the units committed together (none when
 * none has records). The object is named for the first unit; each unit's
 * offsets are committed with it, so a read finds either half of any unit
 * without asking R2 where it starts.
 */
export async function storeUnitResults(bucket: R2Bucket, jobId: string, record: z.ZodObject, units: CollectedUnit[]): Promise<FinishedUnit[]> {
  const columns = csvColumns(record);
  const parts: Uint8Array[] = [];
  let size = 0;
  const resultId = crypto.randomUUID();
  const first = units.find((unit) => unit.records.length > 0)?.unitIndex ?? null;
  const stored = units.map(({ unitIndex, records }): FinishedUnit => {
    if (records.length === 0) return { unitIndex, recordCount: 0, resultId: null, resultUnit: null, resultOffset: 0, csvOffset: 0, resultEnd: null };
    const lines = encoder.encode(records.map(arrayItemLine).join(""));
    const csv = encoder.encode(csvRecordRows(columns, records));
    const resultOffset = size;
    parts.push(lines, csv);
    size += lines.byteLength + csv.byteLength;
    return { unitIndex, recordCount: records.length, resultId, resultUnit: first, resultOffset, csvOffset: resultOffset + lines.byteLength, resultEnd: size };
  });
  if (first === null) return stored;
  const body = new Uint8Array(size);
  let at = 0;
  for (const part of parts) {
    body.set(part, at);
    at += part.byteLength;
  }
  await bucket.put(unitResultsKey(jobId, first, resultId), body, { httpMetadata: { contentType: ARRAY_ITEM_LINES } });
  return stored;
}

/**
 * One half of a committed unit's bytes, by a ranged read of its object (whose
 * media type says how its JSON lines end), short of its last `shortBy` bytes
 * if asked. A unit without records stored nothing to read.
 */
export async function unitPart(bucket: R2Bucket, jobId: string, unit: FinishedUnit, part: UnitPart, shortBy = 0): Promise<R2ObjectBody | null> {
  if (unit.resultId === null) return null;
  const range =
    part === "json"
      ? { offset: unit.resultOffset, length: unit.csvOffset - unit.resultOffset - shortBy }
      : unit.resultEnd === null
        ? { offset: unit.csvOffset }
        : { offset: unit.csvOffset, length: unit.resultEnd - unit.csvOffset };
  return bucket.get(unitResultsKey(jobId, unit.resultUnit ?? unit.unitIndex, unit.resultId), { range });
}

/** Whether the object's JSON lines end with the array's comma (stored since ARRAY_ITEM_LINES). */
export const holdsArrayItems = (object: R2ObjectBody): boolean => object.httpMetadata?.contentType === ARRAY_ITEM_LINES;
