import type { Context } from "hono";
import { afterAnswer } from "../../platform/http/after-answer";
import { noteStep } from "../../platform/http/server-timing";
import { sha256Hex } from "../../platform/lib/crypto";
import type { ResultsJob, ServedUnits } from "./job-results";
import { type ResultsReader, storedBytes, storedRuns, timedReader, type UnitPart } from "./unit-results";

/**
 * The most stored bytes an export may have and still be kept at the edge. A miss tees the export, one branch to the
 * client and one into the cache, and a tee holds whatever the slower branch has not read yet: a slow client of a large
 * export would have all of it held in the isolate's memory (128 MB, shared by its requests). 8 MiB is about 25,000
 * transactions as JSON and twice as many as CSV, more than a 12-month, 3-account job collects; larger exports stream
 * from R2 as before, untouched.
 */
export const EDGE_MAX_BYTES = 8 * 1024 * 1024;

/**
 * What every answer carrying results tells the caches outside the service (JSON, CSV, a download link and its bytes):
 * keep nothing. A running job's results grow, a deletion or a revoked key must stop them at once, and they are one
 * workspace's: no browser, proxy or CDN in front of a client may serve them again. The edge cache below is the
 * worker's own, asked only after every check, and its entries carry their own header.
 */
export const RESULTS_CACHE_CONTROL = "no-store, private";

/** An entry's life, never past the results' expiry: copies a deletion cannot reach (other locations) lapse within it. */
const KEEP_SECONDS = 86_400;

/** In every key: a change to how an export lays out its bytes must change it, so entries of the old layout are never found. */
const LAYOUT = "1";

/**
 * The key of a finished job's export: a URL on the request's own host (the Cache API keeps entries per zone) under a
 * path no route serves, naming the job, the export and a digest of all its bytes are made of: the units' stored parts
 * (each object is written once under a random id and never rewritten), the schema and whether the job is incremental
 * (the CSV's columns), and the results' expiry, which a deletion moves. A new revision or a deletion is a new key, so
 * an old entry is never found. Nothing secret is in it, and a digest of random ids cannot be guessed.
 */
async function edgeKey(origin: string, job: ResultsJob, units: ServedUnits, part: UnitPart): Promise<Request> {
  const parts = units.units.map((u) => [u.unitIndex, u.resultId, u.resultUnit, u.jsonOffset, u.jsonEnd, u.csvOffset, u.csvEnd, u.recordCount].join(":"));
  const revision = await sha256Hex([LAYOUT, job.schema, job.sinceJobId ?? "", units.resultsExpireAt ?? "", ...parts].join("\n"));
  return new Request(`${origin}/.edge-cache/results/${job.id}/${revision}.${part}`);
}

/**
 * An export's body: a finished job's from this location's cache when it is there (Server-Timing `cache`), else read
 * from R2 (`r2`: how long its first read waited) and, when finished and small enough, kept for the next reader. The
 * caller's checks (who may read, 410 once deleted) have all run: the cache stands in for the R2 read only, and keeps
 * only the bytes, so the caller sets the same headers either way. A running job's results grow: never kept.
 */
export async function exportBody(
  c: Context,
  bucket: R2Bucket,
  job: ResultsJob,
  units: ServedUnits,
  part: UnitPart,
  produce: (reader: ResultsReader) => ReadableStream<Uint8Array>,
): Promise<ReadableStream<Uint8Array>> {
  // Nothing stored yet: no R2 read to spare.
  if (storedRuns(units.units).length === 0) return produce(bucket);
  const key = units.kind !== "InProgress" ? await edgeKey(new URL(c.req.url).origin, job, units, part) : null;
  const kept = key ? await caches.default.match(key) : undefined;
  if (kept?.body) {
    noteStep(c, "cache", "hit");
    return kept.body;
  }
  const { reader, firstRead } = timedReader(bucket);
  const body = produce(reader);
  noteStep(c, "r2", await firstRead);
  const bytes = storedBytes(units.units, part);
  if (!key || bytes === null || bytes > EDGE_MAX_BYTES) return body;
  const [served, keeping] = body.tee();
  const seconds = Math.min(KEEP_SECONDS, Math.floor(((units.resultsExpireAt ?? Infinity) - Date.now()) / 1000));
  // A put that fails (the R2 read broke, and the client's branch says so) leaves the next reader to R2.
  afterAnswer(c, caches.default.put(key, new Response(keeping, { headers: { "Cache-Control": `s-maxage=${seconds}` } })).catch(() => undefined));
  return served;
}

/**
 * Deletes a job's results on request (`deletion`: jobs/results-rows.ts deleteJobResults), then drops its exports from
 * this location's cache, so their bytes go here at once; their keys are made before the deletion moves the expiry
 * they name. Copies elsewhere cannot be found after it (their keys name the expiry the deletion moved, and readers are
 * refused 410 before the cache is asked) and lapse within KEEP_SECONDS. `units` is null when none were kept: the job
 * still runs, or its results are gone already.
 */
export async function withExportsDropped<T>(c: Context, job: ResultsJob, units: ServedUnits | null, deletion: () => Promise<T>): Promise<T> {
  const origin = new URL(c.req.url).origin;
  const keys = units ? await Promise.all((["json", "csv"] as const).map((part) => edgeKey(origin, job, units, part))) : [];
  const deleted = await deletion();
  await Promise.all(keys.map((key) => caches.default.delete(key)));
  return deleted;
}
