import { recordJson } from "./array-item-lines";
import { type FinishedUnit, type ResultsReader, storedRuns, unitPart } from "./unit-results";

/**
 * Yields the records' JSON of the given units in order, a batch per chunk read,
 * streaming each object so memory stays flat whatever its size. Batches, not
 * single lines, keep the per-record cost of async iteration out of the loop.
 */
export async function* recordLineBatches(bucket: ResultsReader, jobId: string, units: FinishedUnit[]): AsyncGenerator<string[]> {
  for (const run of storedRuns(units)) {
    const object = await unitPart(bucket, jobId, run, "json");
    if (!object) continue;
    const reader = object.body.pipeThrough(new TextDecoderStream()).getReader();
    let pending = "";
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      const lines = (pending + value).split("\n");
      pending = lines.pop()!;
      const complete = lines.filter(Boolean).map(recordJson);
      if (complete.length) yield complete;
    }
    if (pending) yield [recordJson(pending)];
  }
}

/** The first `count` records of a job's finished units, for a preview; reads no further than it needs. */
export async function firstRecords(bucket: R2Bucket, jobId: string, units: FinishedUnit[], count: number): Promise<Record<string, unknown>[]> {
  const records: Record<string, unknown>[] = [];
  for await (const lines of recordLineBatches(bucket, jobId, units)) {
    for (const line of lines) {
      records.push(JSON.parse(line) as Record<string, unknown>);
      if (records.length === count) return records;
    }
  }
  return records;
}
