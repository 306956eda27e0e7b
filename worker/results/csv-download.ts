import type { Context } from "hono";
import { findSchema } from "../catalog/schemas";
import { finishedUnits, type JobRow } from "../jobs/store";
import { csvResults } from "./csv-export";

/** A job's results so far as a CSV attachment: for the API and for the console's download link alike. */
export async function csvDownload(c: Context, env: { DB: D1Database; RESULTS: R2Bucket }, job: JobRow): Promise<Response> {
  const units = await finishedUnits(env.DB, job.id);
  const body = csvResults(env.RESULTS, job.id, findSchema(job.schema)!.record, units.units);
  return c.body(body, 200, {
    "Content-Type": "text/csv;charset=UTF-8",
    "Content-Disposition": `attachment; filename="${job.id}.csv"`,
    "X-Total-Count": String(units.recordCount),
  });
}
