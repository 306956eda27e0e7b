import type { Context } from "hono";
import type { JobRow } from "./store";
import { jobKind } from "./views";
import { resultRecord } from "../results/changes";
import { csvResults } from "../results/csv-export";
import { xlsxResults } from "../results/xlsx-export";
import { resultUnits } from "./result-units";
import { exportBody, RESULTS_CACHE_CONTROL } from "./results-at-edge";

/** Says what a file holds: `InProgress` means the finished units so far (the spec's `kind` of the job). */
export const JOB_KIND_HEADER = "X-Data-Job-Kind";

/** The files a job's results download as: the spec's CSV, and the Excel workbook finance staff open. */
export const RESULT_FILES = ["csv", "xlsx"] as const;
export type ResultFile = (typeof RESULT_FILES)[number];

export const XLSX_MEDIA_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";
const MEDIA_TYPE: Record<ResultFile, string> = { csv: "text/csv;charset=UTF-8", xlsx: XLSX_MEDIA_TYPE };

/**
 * A job's results so far as a file attachment, CSV or Excel: for the API, the console and download links alike, after
 * the same checks (resultUnits: 410 once deleted). The file is named `<schema>-<job id>.<csv|xlsx>`; both are ASCII by
 * construction (catalog ids, UUIDs), so the plain RFC 6266 `filename` parameter is all any client needs. Only the CSV
 * is kept at the edge (exportBody): the workbook is written per record, its size unknown before it is.
 */
export async function resultsDownload(c: Context, env: { DB: D1Database; RESULTS: R2Bucket }, job: JobRow, file: ResultFile): Promise<Response> {
  const units = await resultUnits(env.DB, job);
  const record = resultRecord(job);
  const body =
    file === "csv"
      ? await exportBody(c, env.RESULTS, job, units, "csv", (reader) => csvResults(reader, job.id, record, units.units))
      : xlsxResults(env.RESULTS, job.id, record, units.units, units.recordCount);
  return c.body(body, 200, {
    "Content-Type": MEDIA_TYPE[file],
    "Content-Disposition": `attachment; filename="${job.schema}-${job.id}.${file}"`,
    "X-Total-Count": String(units.recordCount),
    [JOB_KIND_HEADER]: jobKind(job),
    "Cache-Control": RESULTS_CACHE_CONTROL,
  });
}
