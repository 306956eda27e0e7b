import type { z } from "zod";
import { csvColumns, csvRows } from "./csv-format";
import { type FinishedUnit, type ResultsReader, storedRuns, unitPart } from "./unit-results";

const BOM = "\uFEFF";

/**
 * The CSV download: a byte-order mark (so spreadsheet software reads the
 * Korean as UTF-8) and the Korean header, then the finished units' stored
 * CSV rows piped through untouched, one ranged read a run of units stored
 * together, in unit order.
 */
export function csvResults(bucket: ResultsReader, jobId: string, record: z.ZodObject, units: FinishedUnit[]): ReadableStream<Uint8Array> {
  // The runtime's own identity stream: a stored part piped into it stays in the runtime, no JavaScript per chunk.
  const { readable, writable } = new IdentityTransformStream();
  const runs = storedRuns(units);
  const pump = async () => {
    const writer = writable.getWriter();
    // The first run is asked for while the header waits for the response's reader (timedReader).
    const header = new TextEncoder().encode(BOM + csvRows([csvColumns(record).map((c) => c.label)]));
    const [, opened] = await Promise.all([writer.write(header), runs[0] ? unitPart(bucket, jobId, runs[0], "csv") : null]);
    writer.releaseLock();
    for (const [at, run] of runs.entries()) {
      const rows = at === 0 ? opened : await unitPart(bucket, jobId, run, "csv");
      if (rows) await rows.body.pipeTo(writable, { preventClose: true });
    }
    await writable.close();
  };
  pump().catch((err) => writable.abort(err));
  return readable;
}
