import type { z } from "zod";
import { csvColumns, csvRecordRows } from "./csv-format";
import { ARRAY_ITEM_LINES, arrayItemLine } from "./array-item-lines";
import { unitResultsKey } from "./keys";

/** What a unit's commit records of its stored results (jobs/tables.ts task_units holds it). */
export interface StoredUnit {
  recordCount: number;
  /** The R2 object holding the unit's records (null when it has none), shared by the units committed with it. */
  resultId: string | null;
  /** The unit whose key names the object: the first of those stored together; null for the unit's own. */
  resultUnit: number | null;
  /**
   * Where the unit's JSON lines and its CSV rows lie in the object, so a read needs no call to find them: `jsonEnd`
   * null means they end where the rows start, `csvEnd` null the object's end (objects of one unit, stored before).
   */
  jsonOffset: number;
  jsonEnd: number | null;
  csvOffset: number;
  csvEnd: number | null;
}

export interface FinishedUnit extends StoredUnit {
  unitIndex: number;
}

export interface FinishedUnits {
  units: FinishedUnit[];
  recordCount: number;
}

/** The two halves of a unit's bytes: its JSON lines, then its ready-made CSV rows. */
export type UnitPart = "json" | "csv";

/** A unit's validated records, collected and not yet stored. */
export interface CollectedUnit {
  unitIndex: number;
  records: Record<string, unknown>[];
}

const encoder = new TextEncoder();

/**
 * Stores units' validated records as one object, all their JSON lines and
 * then the same records as CSV rows, unit after unit in each half, so both
 * exports are byte streams of stored parts rather than a parse-and-format pass
 * over every record on each download, at one R2 write for the units committed
 * together (none when none has records), and a download reads each half of a
 * run of units with one ranged get. The object is named for the first unit
 * with records; each unit's offsets are committed with it.
 */
export async function storeUnitResults(bucket: R2Bucket, jobId: string, record: z.ZodObject, units: CollectedUnit[]): Promise<FinishedUnit[]> {
  const columns = csvColumns(record);
  const withRecords = units.filter((unit) => unit.records.length > 0);
  const lines = withRecords.map((unit) => encoder.encode(unit.records.map(arrayItemLine).join("")));
  const rows = withRecords.map((unit) => encoder.encode(csvRecordRows(columns, unit.records)));
  const parts = [...lines, ...rows];
  const body = new Uint8Array(parts.reduce((size, part) => size + part.byteLength, 0));
  const starts: number[] = [];
  for (let at = 0, i = 0; i < parts.length; at += parts[i]!.byteLength, i++) {
    starts.push(at);
    body.set(parts[i]!, at);
  }
  const resultId = crypto.randomUUID();
  const first = withRecords[0]?.unitIndex ?? null;
  if (first !== null) await bucket.put(unitResultsKey(jobId, first, resultId), body, { httpMetadata: { contentType: ARRAY_ITEM_LINES } });
  return units.map(({ unitIndex, records }): FinishedUnit => {
    const i = withRecords.findIndex((unit) => unit.unitIndex === unitIndex);
    if (i < 0) return { unitIndex, recordCount: 0, resultId: null, resultUnit: null, jsonOffset: 0, jsonEnd: null, csvOffset: 0, csvEnd: null };
    const json = starts[i]!;
    const csv = starts[withRecords.length + i]!;
    return { unitIndex, recordCount: records.length, resultId, resultUnit: first, jsonOffset: json, jsonEnd: json + lines[i]!.byteLength, csvOffset: csv, csvEnd: csv + rows[i]!.byteLength };
  });
}

/**
 * Runs of units that lie next to each other in one object, each as one unit spanning them, so a download reads a
 * run's JSON lines or CSV rows with one ranged get instead of one a unit. Units without records are left out.
 */
export function storedRuns(units: FinishedUnit[]): FinishedUnit[] {
  const runs: FinishedUnit[] = [];
  for (const unit of units) {
    if (unit.resultId === null) continue;
    const run = runs.at(-1);
    if (run && unit.resultUnit !== null && run.resultId === unit.resultId && run.jsonEnd === unit.jsonOffset && run.csvEnd === unit.csvOffset) {
      runs[runs.length - 1] = { ...run, recordCount: run.recordCount + unit.recordCount, jsonEnd: unit.jsonEnd, csvEnd: unit.csvEnd };
    } else runs.push(unit);
  }
  return runs;
}

/** What an export reads of the results bucket: ranged gets, nothing else. */
export type ResultsReader = Pick<R2Bucket, "get">;

/** Where a half of a unit's (or a run's) bytes lie in its object; no length: to its end, a CSV half whose end was not recorded. */
function partRange(unit: FinishedUnit, part: UnitPart): { offset: number; length?: number } {
  if (part === "json") return { offset: unit.jsonOffset, length: (unit.jsonEnd ?? unit.csvOffset) - unit.jsonOffset };
  return unit.csvEnd === null ? { offset: unit.csvOffset } : { offset: unit.csvOffset, length: unit.csvEnd - unit.csvOffset };
}

/**
 * One half of a committed unit's bytes (or of a run's), by a ranged read of
 * its object (whose media type says how its JSON lines end), short of its
 * last `shortBy` bytes if asked. A unit without records stored nothing to read.
 */
export async function unitPart(bucket: ResultsReader, jobId: string, unit: FinishedUnit, part: UnitPart, shortBy = 0): Promise<R2ObjectBody | null> {
  if (unit.resultId === null) return null;
  const range = partRange(unit, part);
  if (range.length !== undefined) range.length -= shortBy;
  return bucket.get(unitResultsKey(jobId, unit.resultUnit ?? unit.unitIndex, unit.resultId), { range });
}

/** How many stored bytes an export of the units reads, or null when a half runs to its object's end, unrecorded. */
export function storedBytes(units: FinishedUnit[], part: UnitPart): number | null {
  let bytes = 0;
  for (const run of storedRuns(units)) {
    const { length } = partRange(run, part);
    if (length === undefined) return null;
    bytes += length;
  }
  return bytes;
}

/**
 * The bucket's reader, and how long its first get waited for R2: what a download paid before its first stored byte,
 * for `Server-Timing`. The exports ask for their first part before anything waits for the response's reader, so a
 * caller can wait for this before it answers.
 */
export function timedReader(bucket: ResultsReader): { reader: ResultsReader; firstRead: Promise<number> } {
  let answered: (ms: number) => void = () => undefined;
  const firstRead = new Promise<number>((resolve) => (answered = resolve));
  let asked = false;
  const get = ((key: string, options?: R2GetOptions) => {
    const started = performance.now();
    const got = bucket.get(key, options);
    if (!asked) {
      asked = true;
      const settled = () => answered(Math.round(performance.now() - started));
      got.then(settled, settled);
    }
    return got;
  }) as R2Bucket["get"];
  return { reader: { get }, firstRead };
}

/** Whether the object's JSON lines end with the array's comma (stored since ARRAY_ITEM_LINES). */
export const holdsArrayItems = (object: R2ObjectBody): boolean => object.httpMetadata?.contentType === ARRAY_ITEM_LINES;
