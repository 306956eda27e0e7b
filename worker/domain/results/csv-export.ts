import type { z } from "zod";
import { csvColumns, csvRows } from "./csv-format";
import type { FinishedUnit } from "../jobs/store";
import { storedRuns, unitPart } from "./unit-results";

const BOM = "\uFEFF";

/**
 * The CSV download: a byte-order mark (so spreadsheet software reads the
 * Korean as UTF-8) and the Korean header, then the finished units' stored
 * CSV rows piped through untouched, one ranged read a run of units stored
 * together, in unit order.
 */
export function csvResults(bucket: R2Bucket, jobId: string, record: z.ZodObject, units: FinishedUnit[]): ReadableStream<Uint8Array> {
  // The runtime's own identity stream: a stored part piped into it stays in the runtime, no JavaScript per chunk.
  const { readable, writable } = new IdentityTransformStream();
  const pump = async () => {
    const writer = writable.getWriter();
    await writer.write(new TextEncoder().encode(BOM + csvRows([csvColumns(record).map((c) => c.label)])));
    writer.releaseLock();
    for (const run of storedRuns(units)) {
      const rows = await unitPart(bucket, jobId, run, "csv");
      if (rows) await rows.body.pipeTo(writable, { preventClose: true });
    }
    await writable.close();
  };
  pump().catch((err) => writable.abort(err));
  return readable;
}
