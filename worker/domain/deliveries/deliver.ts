import { scraperClient } from "../scraper/binding";
import { resultRecord } from "../results/changes";
import { csvResults } from "../results/csv-export";
import { jsonResults } from "../results/json-export";
import { S3ConfigSchema, SftpConfigSchema } from "./config";
import { destinationRefusal } from "./destination";
import { localDestinationsAllowed } from "../../platform/http/public-destination";
import { putS3Object } from "./s3";
import { findRouteById, openRouteSecret, type RouteRow } from "./store";

export type DeliverEnv = Pick<Env, "DB" | "RESULTS" | "VAULT_MASTER_KEY" | "SCRAPER" | "SCRAPER_URL" | "SCRAPER_INSTANCES" | "RUNNER_HUB" | "SCRAPER_RUNNERS" | "SCRAPER_SHARED_SECRET" | "WEBHOOK_ALLOW_LOCAL_URLS">;

/** What a delivery reads of a job (a JobRow of jobs/store.ts). */
export type DeliveredJob = { id: string; schema: string; providerCode: string; sinceJobId: string | null; finishedAt: number | null };

/**
 * What a delivery reads of the job flow, which sits above deliveries: the job (jobs/store.ts findJobById) and the units
 * its results serve (jobs/results-rows.ts resultUnits), as results' exporters take them. The queue handler's caller
 * passes them.
 */
export interface DeliveryJobs<Job extends DeliveredJob> {
  findJobById(d1: D1Database, id: string): Promise<Job | null>;
  resultUnits(d1: D1Database, job: Job): Promise<{ units: Parameters<typeof jsonResults>[2]; recordCount: number }>;
}

/** Where one file of a delivery goes: it takes the file's bytes and answers how many it wrote. */
type Sink = (name: string, body: ReadableStream<Uint8Array>, contentType: string) => Promise<number>;

async function sinkFor(env: DeliverEnv, route: RouteRow, jobId: string): Promise<Sink> {
  // The rules the route was stored under, again before every try: a route stored before them, or written around the API, gets nothing.
  const refusal = destinationRefusal(route.kind, route.config, localDestinationsAllowed(env));
  if (refusal) throw new Error(refusal);
  const secret = await openRouteSecret(env.VAULT_MASTER_KEY, route);
  if (route.kind === "S3") {
    const config = S3ConfigSchema.parse(route.config);
    return (name, body, contentType) => putS3Object(config, secret, `${config.prefix}${jobId}/${name}`, body, contentType);
  }
  const config = SftpConfigSchema.parse(route.config);
  const scraper = scraperClient(env);
  if (!scraper) throw new Error("no scraper to speak SFTP");
  const directory = [config.directory.replace(/\/+$/, ""), jobId].filter(Boolean).join("/");
  return (name, body) => scraper.uploadSftp({ host: config.host, port: config.port, username: config.username, secret, hostKeySha256: config.hostKeySha256, directory, name }, body);
}

/**
 * Puts a succeeded job's results where its route says (docs/operations.md, "Results delivered where partners need
 * them"): `results.csv` and `results.json` streamed from R2 as the API serves them, then `manifest.json`, last, so a
 * reader that sees the manifest finds every file whole. Answers what landed; throws on any failure (the caller retries).
 */
export async function deliverJob<Job extends DeliveredJob>(env: DeliverEnv, route: RouteRow, job: Job, jobs: DeliveryJobs<Job>): Promise<{ name: string; bytes: number }[]> {
  const sink = await sinkFor(env, route, job.id);
  const units = await jobs.resultUnits(env.DB, job);
  const files = [
    { name: "results.csv", bytes: await sink("results.csv", csvResults(env.RESULTS, job.id, resultRecord(job), units.units), "text/csv;charset=UTF-8") },
    {
      name: "results.json",
      bytes: await sink("results.json", jsonResults(env.RESULTS, { jobId: job.id, schema: job.schema, totalCount: units.recordCount }, units.units), "application/json"),
    },
  ];
  const manifest = JSON.stringify({ jobId: job.id, providerCode: job.providerCode, schema: job.schema, recordCount: units.recordCount, finishedAt: new Date(job.finishedAt ?? Date.now()).toISOString(), files });
  files.push({ name: "manifest.json", bytes: await sink("manifest.json", new Blob([manifest]).stream(), "application/json") });
  return files;
}

/** The route and job of a delivery, as they are now: null when the route was deleted or the job is gone since. */
export async function deliveryParts<Job extends DeliveredJob>(d1: D1Database, routeId: string, jobId: string, jobs: DeliveryJobs<Job>): Promise<{ route: RouteRow; job: Job } | null> {
  const [route, job] = await Promise.all([findRouteById(d1, routeId), jobs.findJobById(d1, jobId)]);
  return route && job ? { route, job } : null;
}
