import type { Context } from "hono";
import type { JobRow } from "./store";
import { jobKind } from "./views";
import { resultRecord } from "../results/changes";
import { csvResults } from "../results/csv-export";
import { resultUnits } from "./result-units";
import { exportBody, RESULTS_CACHE_CONTROL } from "./results-at-edge";

/** Says what a CSV holds: `InProgress` means the finished units so far (the spec's `kind` of the job). */
export const JOB_KIND_HEADER = "X-Data-Job-Kind";

/**
 * A job's results so far as a CSV attachment: for the API, the console and
 * download links alike. The file is named `<schema>-<job id>.csv`; both are
 * ASCII by construction (catalog ids, UUIDs), so the plain RFC 6266
 * `filename` parameter is all any client needs.
 */
export async function csvDownload(c: Context, env: { DB: D1Database; RESULTS: R2Bucket }, job: JobRow): Promise<Response> {
  const units = await resultUnits(env.DB, job);
  const body = await exportBody(c, env.RESULTS, job, units, "csv", (reader) => csvResults(reader, job.id, resultRecord(job), units.units));
  return c.body(body, 200, {
    "Content-Type": "text/csv;charset=UTF-8",
    "Content-Disposition": `attachment; filename="${job.schema}-${job.id}.csv"`,
    "X-Total-Count": String(units.recordCount),
    [JOB_KIND_HEADER]: jobKind(job),
    "Cache-Control": RESULTS_CACHE_CONTROL,
  });
}
