import { DatabaseSync } from "node:sqlite";
import { parseArgs } from "node:util";
import { pathToFileURL } from "node:url";
import { CollectClient, type CreateDataJobRequest, type SchemaId } from "../../client/src/index";
import { naturalKey } from "./natural-keys";

/**
 * A scheduled load: run one collection job and upsert its records into a
 * SQLite file, keyed by each schema's natural key, so running it again (by
 * cron, after a crash, for an overlapping period) adds what is new and never
 * a duplicate.
 *
 *   COLLECT_BASE_URL=http://localhost:8787 COLLECT_API_KEY=sk_... \
 *   node --import tsx examples/scheduled-load/load.ts --db ledger.sqlite \
 *     --provider sandbox.bank --schema bank.transactions.cb.v1 --from 2026-01-01 --to 2026-03-31
 */
export interface LoadOptions {
  client: CollectClient;
  dbPath: string;
  request: CreateDataJobRequest;
}

export interface LoadSummary {
  jobId: string;
  schema: string;
  /** Records the job collected. */
  recordCount: number;
  /** Rows for this schema in the store after the load. */
  storedCount: number;
}

const SCHEMA_SQL = `
CREATE TABLE IF NOT EXISTS records (
  schema TEXT NOT NULL,
  natural_key TEXT NOT NULL,
  record TEXT NOT NULL,
  job_id TEXT NOT NULL,
  loaded_at TEXT NOT NULL,
  PRIMARY KEY (schema, natural_key)
);
CREATE TABLE IF NOT EXISTS loads (
  job_id TEXT PRIMARY KEY,
  schema TEXT NOT NULL,
  record_count INTEGER NOT NULL,
  loaded_at TEXT NOT NULL
);`;

export async function loadJob({ client, dbPath, request }: LoadOptions): Promise<LoadSummary> {
  // A job that fails throws JobFailedError (its category and code say why); transient failures are retried as `retryable` allows.
  const job = await client.runJob(request, { throwOnFailure: true });
  if (job.kind !== "Succeeded") throw new Error("unreachable: runJob threw for a failed job");
  const { data } = await client.records(job.id, job.schema as SchemaId);
  const db = new DatabaseSync(dbPath);
  try {
    db.exec(SCHEMA_SQL);
    const upsert = db.prepare(
      `INSERT INTO records (schema, natural_key, record, job_id, loaded_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (schema, natural_key) DO UPDATE SET record = excluded.record, job_id = excluded.job_id, loaded_at = excluded.loaded_at`,
    );
    const now = new Date().toISOString();
    // One transaction: a crash mid-load leaves the previous state, never half a load.
    db.exec("BEGIN");
    try {
      for (const record of data) upsert.run(record.schema, naturalKey(record), JSON.stringify(record), job.id, now);
      db.prepare("INSERT OR REPLACE INTO loads (job_id, schema, record_count, loaded_at) VALUES (?, ?, ?, ?)").run(job.id, job.schema, job.recordCount, now);
      db.exec("COMMIT");
    } catch (err) {
      db.exec("ROLLBACK");
      throw err;
    }
    const { stored } = db.prepare("SELECT count(*) AS stored FROM records WHERE schema = ?").get(job.schema) as { stored: number };
    return { jobId: job.id, schema: job.schema, recordCount: job.recordCount, storedCount: stored };
  } finally {
    db.close();
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { db: { type: "string" }, provider: { type: "string" }, schema: { type: "string" }, from: { type: "string" }, to: { type: "string" } },
  });
  const { COLLECT_BASE_URL: baseUrl, COLLECT_API_KEY: apiKey } = process.env;
  if (!values.db || !values.provider || !values.schema || !baseUrl || !apiKey) {
    console.error("usage: COLLECT_BASE_URL=... COLLECT_API_KEY=... load.ts --db FILE --provider CODE --schema ID [--from YYYY-MM-DD --to YYYY-MM-DD]");
    process.exit(2);
  }
  const params = values.from && values.to ? { dateRangeStart: values.from, dateRangeEnd: values.to } : {};
  const summary = await loadJob({ client: new CollectClient({ baseUrl, apiKey }), dbPath: values.db, request: { providerCode: values.provider, schema: values.schema, params } });
  console.log(JSON.stringify(summary));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) await main();
