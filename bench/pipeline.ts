/**
 * Pipeline benchmark, all figures from one run:
 * 1. end-to-end time of a 12-month, 3-account transaction job through the
 *    local stack beside the bare adapter doing the same scrape directly
 *    (target: ratio <= 1.3), and logins per job (target: 1);
 * 2. repeated downloads of that finished job: its JSON, its CSV and a download
 *    link, `BENCH_DOWNLOADS` times each (default 20), and how many of them read
 *    R2 (Server-Timing names `r2`; the rest name the edge cache);
 * 3. CSV and JSON export throughput and peak worker memory for 100k and 1M records
 *    (`BENCH_EXPORT_RECORDS`, comma-separated; empty skips them) beside reading
 *    the same bytes raw from R2 (target: >= 70% of raw, memory flat as size
 *    grows), first while the job still runs (one unit left to collect), then
 *    once it succeeded (the same targets);
 * 0. first, apart from the stack: the institution's pace (institution-pace.ts), every real-institution schema's
 *    requests per record against its replica and a large business's 12-month job in requests and minutes beside the
 *    fewest the facts allow; `BENCH_PACE_ONLY=1` stops after it.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import puppeteer from "puppeteer-core";
import { findProvider } from "../worker/domain/catalog/providers";
import { splitRange } from "../worker/domain/pipeline/segments";
import { browserInstitutionFor } from "../collectors/registry";
import { scraperAuthorization } from "../contracts/scraper-protocol";
import { unitResultsKey } from "../worker/domain/results/keys";
import { ARRAY_ITEM_LINES } from "../worker/domain/results/array-item-lines";
import { DEMO_WORKSPACE_ID } from "../scripts/demo-seed";
import { freePort } from "../scripts/free-port";
import { startLocalStack } from "../scripts/local-stack";
import { startBenchWorker } from "./bench-worker";
import { institutionPace } from "./institution-pace";
import { peakRssMb } from "./process-memory";
import { writeSyntheticUnit } from "./synthetic-results";
import { CHROMIUM_LAUNCH, DEFAULT_CHROMIUM_PATH } from "../scraper-container/browser-pool";

const ROOT = path.resolve(import.meta.dirname, "..");
const RANGE = { start: "2025-01-01", end: "2025-12-31" };
const RECORDS_PER_OBJECT = 100_000;
const DOWNLOADS = Number(process.env.BENCH_DOWNLOADS ?? 20);
const EXPORT_RECORDS = (process.env.BENCH_EXPORT_RECORDS ?? "100000,1000000").split(",").filter(Boolean).map(Number);

await institutionPace();
if (process.env.BENCH_PACE_ONLY === "1") process.exit(0);

const stack = await startLocalStack({
  port: await freePort(),
  sandboxPort: await freePort(),
  scraperPort: await freePort(),
  persistTo: mkdtempSync(path.join(tmpdir(), "bench-pipeline-")),
  logDir: path.join(ROOT, "test-artifacts/bench-pipeline"),
  // Close polling would trip the spec's 100/minute; the limit is not what this measures.
  vars: { RATE_LIMIT_PER_MINUTE: "10000000", RATE_LIMIT_PER_HOUR: "10000000" },
});
const auth = { Authorization: `Bearer ${stack.apiKey}`, "Content-Type": "application/json" };
const logins = async () =>
  ((await (await fetch(`${stack.scraperUrl}/stats`, { headers: { Authorization: scraperAuthorization(stack.scraperSecret) } })).json()) as { logins: number }).logins;

async function serviceJob(): Promise<{ id: string; ms: number; records: number; units: number }> {
  const started = performance.now();
  const created = await fetch(`${stack.baseUrl}/api/v1/data-jobs`, {
    method: "POST",
    headers: auth,
    body: JSON.stringify({ providerCode: "sandbox.bank", schema: "bank.transactions.cb.v1", params: { dateRangeStart: RANGE.start, dateRangeEnd: RANGE.end } }),
  });
  const { id } = (await created.json()) as { id: string };
  for (;;) {
    const job = (await (await fetch(`${stack.baseUrl}/api/v1/data-jobs/${id}`, { headers: auth })).json()) as Record<string, any>;
    if (job.kind === "Succeeded") return { id, ms: performance.now() - started, records: job.recordCount, units: 0 };
    if (job.kind === "Failed") throw new Error(`bench job failed: ${JSON.stringify(job.error)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The same scrape with the adapter alone: one warm browser, one login, every unit in turn. */
async function bareAdapter(): Promise<{ ms: number; records: number; units: number }> {
  const provider = findProvider("sandbox.bank")!;
  const { adapter, baseUrl } = browserInstitutionFor(provider.code, stack.sandboxUrl)!;
  const browser = await puppeteer.launch({ ...CHROMIUM_LAUNCH, executablePath: process.env.CHROMIUM_PATH || DEFAULT_CHROMIUM_PATH });
  try {
    const context = await browser.createBrowserContext();
    const page = await context.newPage();
    const ctx = { baseUrl };
    const started = performance.now();
    await adapter.login(page, { authMethod: "PROVIDER_LOGIN", loginId: "user_good", password: "pass_good" }, ctx);
    const targets = await adapter.discoverTargets(page, "bank.transactions.cb.v1", ctx);
    let records = 0;
    let unitIndex = 0;
    for (const target of targets) {
      for (const segment of splitRange(RANGE.start, RANGE.end, provider.pageWindowDays)) {
        records += (await adapter.collect(page, { jobId: "bare", unitIndex: unitIndex++, schema: "bank.transactions.cb.v1", target, segment, params: {} }, ctx)).length;
      }
    }
    return { ms: performance.now() - started, records, units: unitIndex };
  } finally {
    await browser.close();
  }
}

/**
 * Stores a running job of `total` synthetic records straight into the stack's local R2 and D1, every unit done but
 * one more still queued (nothing runs it: the benchmark's stack fires no sweep, and no plan message names the job);
 * returns where each unit's JSON lines end and CSV rows start, for the raw reads to read the same bytes the exports do.
 */
async function seedExportJob(total: number, scratch: string): Promise<{ jobId: string; csvRanges: { key: string; offset: number }[]; bytes: number; units: number }> {
  const jobId = crypto.randomUUID();
  const csvRanges: { key: string; offset: number }[] = [];
  let bytes = 0;
  const units = Math.ceil(total / RECORDS_PER_OBJECT);
  const rows: string[] = [];
  for (let unit = 0; unit < units; unit++) {
    const count = Math.min(RECORDS_PER_OBJECT, total - unit * RECORDS_PER_OBJECT);
    const file = path.join(scratch, `${jobId}-${unit}`);
    const { csvOffset, csvBytes } = await writeSyntheticUnit(file, unit, count);
    bytes += csvBytes;
    const resultId = crypto.randomUUID();
    await stack.wrangler(["r2", "object", "put", `collect-results/${unitResultsKey(jobId, unit, resultId)}`, "--file", file, "--content-type", ARRAY_ITEM_LINES]);
    rmSync(file);
    csvRanges.push({ key: unitResultsKey(jobId, unit, resultId), offset: csvOffset });
    rows.push(`('${jobId}', ${unit}, 'DONE', ${count}, '${resultId}', ${csvOffset}, ${Date.now()})`);
  }
  const now = Date.now();
  await executeSql(scratch, [
    `INSERT INTO jobs (id, workspace_id, provider_code, schema, params, status, record_count, completed_task_count, total_task_count, created_at, updated_at, deadline_at) VALUES ('${jobId}', '${DEMO_WORKSPACE_ID}', 'sandbox.bank', 'bank.transactions.cb.v1', '{}', 'RUNNING', ${total}, ${units}, ${units + 1}, ${now}, ${now}, ${now + 3_600_000});`,
    `INSERT INTO task_units (job_id, unit_index, status, record_count, result_id, csv_offset, updated_at) VALUES ${rows.join(", ")};`,
    `INSERT INTO task_units (job_id, unit_index, status, updated_at) VALUES ('${jobId}', ${units}, 'QUEUED', ${now});`,
  ]);
  return { jobId, csvRanges, bytes, units };
}

/** The seeded job's last unit came back empty and the job succeeded. */
async function finishExportJob(jobId: string, units: number, scratch: string): Promise<void> {
  const now = Date.now();
  await executeSql(scratch, [
    `UPDATE task_units SET status = 'DONE', record_count = 0, updated_at = ${now} WHERE job_id = '${jobId}' AND unit_index = ${units};`,
    `UPDATE jobs SET status = 'SUCCEEDED', completed_task_count = ${units + 1}, updated_at = ${now}, finished_at = ${now} WHERE id = '${jobId}';`,
  ]);
  // The workspace's job board trusts the running entry the exports read for a few seconds (FRESH_MS in
  // worker/domain/jobs/board.ts), then reads D1 again, as it would after the executor published the success.
  for (let waited = 0; ; waited++) {
    const job = (await (await fetch(`${stack.baseUrl}/api/v1/data-jobs/${jobId}`, { headers: auth })).json()) as { kind: string };
    if (job.kind === "Succeeded") return;
    if (waited === 60) throw new Error(`the seeded job still reads ${job.kind} a minute after it succeeded`);
    await new Promise((r) => setTimeout(r, 1000));
  }
}

async function executeSql(scratch: string, statements: string[]): Promise<void> {
  const sqlFile = path.join(scratch, `${crypto.randomUUID()}.sql`);
  writeFileSync(sqlFile, statements.join("\n"));
  await stack.wrangler(["d1", "execute", "collect", "--file", sqlFile]);
  rmSync(sqlFile);
}

async function drain(url: string, headers: Record<string, string> = {}): Promise<number> {
  return (await download(url, headers)).bytes;
}

/** A download read to its end, and which steps its answer says it paid for (`Server-Timing`). */
async function download(url: string, headers: Record<string, string> = {}): Promise<{ bytes: number; timing: string }> {
  const response = await fetch(url, { headers });
  if (!response.ok) throw new Error(`${url}: ${response.status}`);
  let bytes = 0;
  const reader = response.body!.getReader();
  for (let r = await reader.read(); !r.done; r = await reader.read()) bytes += r.value.byteLength;
  return { bytes, timing: response.headers.get("Server-Timing") ?? "" };
}

/**
 * A finished job's JSON, CSV and a download link, each downloaded `times` over, one after another: how many read R2.
 * The link serves results.csv's bytes, so it finds the entry the CSV's first download kept.
 */
async function repeatedDownloads(jobId: string, times: number): Promise<Record<string, string | number>[]> {
  const made = await fetch(`${stack.baseUrl}/api/v1/data-jobs/${jobId}/download-links`, { method: "POST", headers: auth, body: "{}" });
  const { url } = (await made.json()) as { url: string };
  const keyed = { Authorization: `Bearer ${stack.apiKey}` };
  const ways: [string, string, Record<string, string>][] = [
    ["results (JSON)", `${stack.baseUrl}/api/v1/data-jobs/${jobId}/results`, keyed],
    ["results.csv", `${stack.baseUrl}/api/v1/data-jobs/${jobId}/results.csv`, keyed],
    ["download link", url, {}],
  ];
  const rows: Record<string, string | number>[] = [];
  for (const [way, wayUrl, headers] of ways) {
    const steps = { r2: 0, cache: 0 };
    let bytes = 0;
    for (let i = 0; i < times; i++) {
      const got = await download(wayUrl, headers);
      if (/(^|,\s*)r2;/.test(got.timing)) steps.r2++;
      if (/(^|,\s*)cache;/.test(got.timing)) steps.cache++;
      bytes = got.bytes;
    }
    rows.push({ download: way, bytes, "read R2": `${steps.r2} of ${times}`, "from the edge cache": `${steps.cache} of ${times}` });
  }
  return rows;
}

let rawReader: Awaited<ReturnType<typeof startBenchWorker>> | undefined;
try {
  await serviceJob(); // warm-up: first compile, browser start, sandbox caches
  const loginsBefore = await logins();
  const service = await serviceJob();
  const loginsPerJob = (await logins()) - loginsBefore;
  const bare = await bareAdapter();
  if (bare.records !== service.records) throw new Error(`record counts differ: service ${service.records}, bare ${bare.records}`);

  console.log(`\n12-month, 3-account transaction job (${bare.units} units, ${service.records} records)`);
  console.table([
    { path: "service end to end", seconds: (service.ms / 1000).toFixed(2) },
    { path: "bare adapter", seconds: (bare.ms / 1000).toFixed(2) },
  ]);
  console.log(`end-to-end / bare adapter: ${(service.ms / bare.ms).toFixed(2)}x (target <= 1.3)`);
  console.log(`logins per job: ${loginsPerJob} (target 1)`);

  console.log(`\nThe finished job downloaded ${DOWNLOADS} times each way: reads of R2 (the rest from the edge cache)`);
  console.table(await repeatedDownloads(service.id, DOWNLOADS));

  const scratch = mkdtempSync(path.join(tmpdir(), "bench-export-"));
  rawReader = await startBenchWorker("bench/wrangler.raw-reader.toml", stack.persistTo);
  /** Reading each unit's range raw, one request a unit, then the export as a partner downloads it, with the worker's memory meanwhile. */
  const exportBeside = async (seeded: Awaited<ReturnType<typeof seedExportJob>>, range: (offset: number) => string, exportPath: string) => {
    const rawStart = performance.now();
    let rawBytes = 0;
    for (const { key, offset } of seeded.csvRanges) rawBytes += await drain(`${rawReader!.url}/${encodeURIComponent(key)}?${range(offset)}`);
    const rawMBps = rawBytes / 1e6 / ((performance.now() - rawStart) / 1000);
    const run = await peakRssMb(stack.workerPid, async () => {
      const started = performance.now();
      const bytes = await drain(`${stack.baseUrl}/api/v1/data-jobs/${seeded.jobId}/${exportPath}`, { Authorization: `Bearer ${stack.apiKey}` });
      return { bytes, ms: performance.now() - started };
    });
    // The export carries every raw byte plus its header (or the JSON document's frame): fewer means records went missing.
    if (run.result.bytes < rawBytes) throw new Error(`${exportPath} of ${seeded.jobId} sent ${run.result.bytes} bytes, fewer than the ${rawBytes} stored`);
    const exportMBps = run.result.bytes / 1e6 / (run.result.ms / 1000);
    return { rawMBps, exportMBps, ratio: `${((exportMBps / rawMBps) * 100).toFixed(0)}%`, baselineMb: run.baselineMb, peakMb: run.peakMb };
  };
  const rows: Record<string, string | number>[] = [];
  const measureExports = async (seeded: Awaited<ReturnType<typeof seedExportJob>>, total: number, job: string) => {
    const csv = await exportBeside(seeded, (offset) => `offset=${offset}`, "results.csv");
    const json = await exportBeside(seeded, (offset) => `offset=0&length=${offset}`, "results");
    rows.push({
      records: total,
      job,
      "CSV MB": (seeded.bytes / 1e6).toFixed(1),
      "raw CSV rows MB/s": csv.rawMBps.toFixed(1),
      "CSV export MB/s": csv.exportMBps.toFixed(1),
      "CSV / raw": csv.ratio,
      "raw JSON lines MB/s": json.rawMBps.toFixed(1),
      "JSON export MB/s": json.exportMBps.toFixed(1),
      "JSON / raw": json.ratio,
      "worker RSS before MB": csv.baselineMb.toFixed(0),
      "worker RSS peak MB (CSV, JSON)": `${csv.peakMb.toFixed(0)}, ${json.peakMb.toFixed(0)}`,
    });
  };
  for (const total of EXPORT_RECORDS) {
    const seeded = await seedExportJob(total, scratch);
    await measureExports(seeded, total, "running");
    await finishExportJob(seeded.jobId, seeded.units, scratch);
    await measureExports(seeded, total, "succeeded");
  }
  if (rows.length > 0) {
    console.log("\nExports vs raw R2 reads of the same bytes, while the job runs and once it succeeded (target >= 70% of raw, peak memory flat as size grows)");
    console.table(rows);
  }
  rmSync(scratch, { recursive: true, force: true });
} finally {
  rawReader?.child.kill("SIGTERM");
  await stack.stop();
}
