import type { Bindings } from "../../env";
import { findJobById, type JobRow } from "../jobs/store";
import { ContainerScraper } from "../scraper/container-client";
import { scraperInstances } from "../scraper/binding";
import { resultRecord, resultUnits } from "../results/changes";
import { csvResults } from "../results/csv-export";
import { jsonResults } from "../results/json-export";
import { S3ConfigSchema, SftpConfigSchema } from "./config";
import { putS3Object } from "./s3";
import { findRouteById, openRouteSecret, type RouteRow } from "./store";

export type DeliverEnv = Pick<Bindings, "DB" | "RESULTS" | "VAULT_MASTER_KEY" | "SCRAPER" | "SCRAPER_URL" | "SCRAPER_INSTANCES" | "RUNNER_HUB" | "SCRAPER_RUNNERS" | "SCRAPER_SHARED_SECRET">;

/** Where one file of a delivery goes: it takes the file's bytes and answers how many it wrote. */
type Sink = (name: string, body: ReadableStream<Uint8Array>, contentType: string) => Promise<number>;

async function sinkFor(env: DeliverEnv, route: RouteRow, jobId: string): Promise<Sink> {
  const secret = await openRouteSecret(env.VAULT_MASTER_KEY, route);
  if (route.kind === "S3") {
    const config = S3ConfigSchema.parse(route.config);
    return (name, body, contentType) => putS3Object(config, secret, `${config.prefix}${jobId}/${name}`, body, contentType);
  }
  const config = SftpConfigSchema.parse(route.config);
  const instances = scraperInstances(env);
  if (!instances) throw new Error("no scraper to speak SFTP");
  const scraper = new ContainerScraper(instances, env.SCRAPER_SHARED_SECRET);
  const directory = [config.directory.replace(/\/+$/, ""), jobId].filter(Boolean).join("/");
  return (name, body) => scraper.uploadSftp({ host: config.host, port: config.port, username: config.username, secret, hostKeySha256: config.hostKeySha256, directory, name }, body);
}

/**
 * Puts a succeeded job's results where its route says (docs/operations.md, "Results delivered where partners need
 * them"): `results.csv` and `results.json` streamed from R2 as the API serves them, then `manifest.json`, last, so a
 * reader that sees the manifest finds every file whole. Answers what landed; throws on any failure (the caller retries).
 */
export async function deliverJob(env: DeliverEnv, route: RouteRow, job: JobRow): Promise<{ name: string; bytes: number }[]> {
  const sink = await sinkFor(env, route, job.id);
  const units = await resultUnits(env.DB, job);
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
export async function deliveryParts(d1: D1Database, routeId: string, jobId: string): Promise<{ route: RouteRow; job: JobRow } | null> {
  const [route, job] = await Promise.all([findRouteById(d1, routeId), findJobById(d1, jobId)]);
  return route && job ? { route, job } : null;
}
