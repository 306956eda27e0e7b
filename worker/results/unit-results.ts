import type { z } from "zod";
import { csvColumns, csvRecordRows } from "./csv-format";
import { unitCsvKey, unitObjectKey } from "./keys";

/**
 * Stores a unit's validated records twice: NDJSON for the JSON results and
 * ready-made CSV rows, so a CSV export is a byte stream of stored objects
 * rather than a parse-and-format pass over every record on each download.
 */
export async function storeUnitResults(bucket: R2Bucket, jobId: string, unitIndex: number, record: z.ZodObject, records: Record<string, unknown>[]): Promise<void> {
  const ndjson = records.map((r) => JSON.stringify(r)).join("\n");
  await Promise.all([
    bucket.put(unitObjectKey(jobId, unitIndex), ndjson ? `${ndjson}\n` : "", { httpMetadata: { contentType: "application/x-ndjson" } }),
    bucket.put(unitCsvKey(jobId, unitIndex), csvRecordRows(csvColumns(record), records), { httpMetadata: { contentType: "text/csv" } }),
  ]);
}
