import type { Context } from "hono";
import { resultRecord } from "./changes";
import { csvResults } from "./csv-export";
import { exportBody, RESULTS_CACHE_CONTROL } from "./edge-cache";
import type { ResultsJob, ServedUnits } from "./job-results";
import { xlsxResults } from "./xlsx-export";

/** Says what a file holds: `InProgress` means the finished units so far (the spec's `kind` of the job). */
export const JOB_KIND_HEADER = "X-Data-Job-Kind";

/** The files a job's results download as: the spec's CSV, and the Excel workbook finance staff open. */
export const RESULT_FILES = ["csv", "xlsx"] as const;
export type ResultFile = (typeof RESULT_FILES)[number];

export const XLSX_MEDIA_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";
const MEDIA_TYPE: Record<ResultFile, string> = { csv: "text/csv;charset=UTF-8", xlsx: XLSX_MEDIA_TYPE };

/**
 * A job's results so far as a file attachment, CSV or Excel: for the API, the console and download links alike, after
 * the same checks (the units jobs/results-rows.ts resultUnits serves: 410 once deleted). The file is named
 * `<schema>-<job id>.<csv|xlsx>`; both are ASCII by construction (catalog ids, UUIDs), so the plain RFC 6266 `filename`
 * parameter is all any client needs. Only the CSV is kept at the edge (exportBody): the workbook is written per
 * record, its size unknown before it is.
 */
export async function resultsDownload(c: Context, bucket: R2Bucket, job: ResultsJob, units: ServedUnits, file: ResultFile): Promise<Response> {
  const record = resultRecord(job);
  const body =
    file === "csv"
      ? await exportBody(c, bucket, job, units, "csv", (reader) => csvResults(reader, job.id, record, units.units))
      : xlsxResults(bucket, job.id, record, units.units, units.recordCount);
  return c.body(body, 200, {
    "Content-Type": MEDIA_TYPE[file],
    "Content-Disposition": `attachment; filename="${job.schema}-${job.id}.${file}"`,
    "X-Total-Count": String(units.recordCount),
    [JOB_KIND_HEADER]: units.kind,
    "Cache-Control": RESULTS_CACHE_CONTROL,
  });
}
