/**
 * Cost of a job, all figures from one run: each kind of job runs alone on the
 * local stack with the worker's meter on (worker/platform/metering.ts counts D1 rows
 * read and written as D1 reports them per query, Durable Object requests,
 * queue messages, R2 operations and bytes, worker invocations), a client
 * polling at the suggested interval, and the worker's and scraper's CPU read
 * from /proc. Prints the usage per job and, with the unit prices in
 * docs/costs.md, the cost per 1,000 jobs.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { freePort } from "../scripts/free-port";
import { type LocalStack, startLocalStack } from "../scripts/local-stack";
import { CONTAINER_INSTANCE } from "./container-instance";
import { treeCpuSeconds } from "./process-cpu";
import { DEFAULT_MAX_SESSIONS } from "../scraper-container/server";
import type { Usage } from "../worker/platform/metering-usage";

const ROOT = path.resolve(import.meta.dirname, "..");
/** What a client does: polls at the job's suggestedPollIntervalMs. */
const PAGE_LATENCY_MS = Number(process.env.BENCH_PAGE_LATENCY_MS ?? 300);

/** docs/costs.md: Cloudflare's published unit prices (USD), with the date they were read. */
const PRICE = {
  workerRequest: 0.3 / 1e6,
  workerCpuMs: 0.02 / 1e6,
  d1RowRead: 0.001 / 1e6,
  d1RowWritten: 1.0 / 1e6,
  durableObjectRequest: 0.15 / 1e6,
  queueOperation: 0.4 / 1e6,
  r2ClassA: 4.5 / 1e6,
  r2ClassB: 0.36 / 1e6,
  r2GbMonth: 0.015,
  /** A container's CPU is billed by active use, its memory and disk as provisioned while it runs (docs/costs.md). */
  containerVcpuSecond: 0.00002,
  containerGibSecond: 0.0000025,
  containerDiskGbSecond: 0.00000007,
};
/** What a running instance is billed for whatever it does: its memory and disk as provisioned. */
const instanceProvisionedSecond = CONTAINER_INSTANCE.memoryGib * PRICE.containerGibSecond + CONTAINER_INSTANCE.diskGb * PRICE.containerDiskGbSecond;
/** Sessions one container instance holds at once (the scraper's MAX_SESSIONS): a job occupies that share of an instance. */
const SESSIONS_PER_INSTANCE = DEFAULT_MAX_SESSIONS;
/** Results kept a month before a partner deletes or re-collects them: the storage line assumes it. */
const STORAGE_MONTHS = 1;

const KINDS = [
  { name: "transactions, 12 months x 3 accounts", providerCode: "sandbox.bank", schema: "bank.transactions.cb.v1", params: { dateRangeStart: "2025-01-01", dateRangeEnd: "2025-12-31" } },
  { name: "tax invoices, one quarter", providerCode: "sandbox.taxportal", schema: "taxportal.tax-invoices.sales.v1", params: { dateRangeStart: "2026-01-01", dateRangeEnd: "2026-03-31" } },
  { name: "account list", providerCode: "sandbox.bank", schema: "bank.accounts.cb.v1", params: {} },
];

const meter = async (stack: LocalStack, reset: boolean) => (await (await fetch(`${stack.baseUrl}/__meter${reset ? "?reset" : ""}`)).json()) as Usage;

async function runJob(stack: LocalStack, kind: (typeof KINDS)[number]): Promise<{ seconds: number; records: number; polls: number }> {
  const headers = { Authorization: `Bearer ${stack.apiKey}`, "Content-Type": "application/json" };
  const started = performance.now();
  const created = await fetch(`${stack.baseUrl}/api/v1/data-jobs`, { method: "POST", headers, body: JSON.stringify(kind) });
  const { id, suggestedPollIntervalMs } = (await created.json()) as { id: string; suggestedPollIntervalMs: number };
  for (let polls = 1; ; polls++) {
    await new Promise((r) => setTimeout(r, suggestedPollIntervalMs));
    const job = (await (await fetch(`${stack.baseUrl}/api/v1/data-jobs/${id}`, { headers })).json()) as Record<string, unknown>;
    if (job.kind === "Failed") throw new Error(`${kind.name}: ${JSON.stringify(job.error)}`);
    if (job.kind === "Succeeded") {
      // The partner fetches the results once, as CSV.
      await (await fetch(`${stack.baseUrl}/api/v1/data-jobs/${id}/results.csv`, { headers })).arrayBuffer();
      return { seconds: (performance.now() - started) / 1000, records: Number(job.recordCount), polls };
    }
  }
}

/**
 * What a job's tail leaves after its last answer: the session's close, and the request log's last batch, which the
 * consumer takes up to its max_batch_timeout (5 s, wrangler.toml) later. Read sooner, the meter counts the warm-up's
 * last log rows as the measured job's and leaves the job's own out.
 */
const SETTLE_MS = 7000;

const stack = await startLocalStack({
  port: await freePort(),
  sandboxPort: await freePort(),
  scraperPort: await freePort(),
  sandboxPageLatencyMs: PAGE_LATENCY_MS,
  persistTo: mkdtempSync(path.join(tmpdir(), "bench-cost-")),
  logDir: path.join(ROOT, "test-artifacts/bench-cost"),
  vars: { COST_METER: "1" },
});
try {
  const rows = [];
  const costs = [];
  const writers: Record<string, Record<string, number>> = {};
  for (const kind of KINDS) {
    await runJob(stack, kind); // warm-up: compile, browser, caches
    await new Promise((r) => setTimeout(r, SETTLE_MS)); // the warm-up's session close and its last log batch
    await meter(stack, true);
    const cpuBefore = { worker: treeCpuSeconds([stack.workerPid]), scraper: treeCpuSeconds(stack.scraperPids()) };
    const job = await runJob(stack, kind);
    await new Promise((r) => setTimeout(r, SETTLE_MS));
    const used = await meter(stack, true);
    const workerCpuMs = (treeCpuSeconds([stack.workerPid]) - cpuBefore.worker) * 1000;
    const scraperCpuS = treeCpuSeconds(stack.scraperPids()) - cpuBefore.scraper;
    // Every API call and every delivery is a billed invocation; the meter counts both.
    const requests = used.workerInvocations;
    const queueOperations = used.queueMessages * 3;
    const containerSeconds = job.seconds / SESSIONS_PER_INSTANCE;
    const lines = {
      "Worker requests": requests * PRICE.workerRequest,
      "Worker CPU": workerCpuMs * PRICE.workerCpuMs,
      "D1 rows read": used.d1RowsRead * PRICE.d1RowRead,
      "D1 rows written": used.d1RowsWritten * PRICE.d1RowWritten,
      "DO requests": used.durableObjectRequests * PRICE.durableObjectRequest,
      "Queue operations": queueOperations * PRICE.queueOperation,
      "R2 class A": used.r2ClassA * PRICE.r2ClassA,
      "R2 class B": used.r2ClassB * PRICE.r2ClassB,
      "R2 storage": (used.r2BytesWritten / 1e9) * STORAGE_MONTHS * PRICE.r2GbMonth,
      "Container memory and disk": containerSeconds * instanceProvisionedSecond,
      // The scraper tree's CPU while the job ran alone: its session's and the whole instance's own part (the browser
      // process, Node), which at MAX_SESSIONS sessions a job would share; an upper bound.
      "Container CPU": scraperCpuS * PRICE.containerVcpuSecond,
    };
    rows.push({
      job: kind.name,
      records: job.records,
      "job s": job.seconds.toFixed(1),
      polls: job.polls,
      "worker requests": requests,
      "worker CPU ms (local)": Math.round(workerCpuMs),
      "D1 queries": used.d1Queries,
      "D1 rows read": used.d1RowsRead,
      "D1 rows written": used.d1RowsWritten,
      "DO requests": used.durableObjectRequests,
      "queue ops": queueOperations,
      "R2 A": used.r2ClassA,
      "R2 B": used.r2ClassB,
      "R2 KB stored": (used.r2BytesWritten / 1024).toFixed(1),
      "container s": containerSeconds.toFixed(1),
      "scraper CPU s (local)": scraperCpuS.toFixed(1),
    });
    writers[kind.name] = used.d1RowsWrittenBy;
    const total = Object.values(lines).reduce((a, b) => a + b, 0);
    const biggest = Object.entries(lines).sort(([, a], [, b]) => b - a)[0]!;
    costs.push({
      job: kind.name,
      ...Object.fromEntries(Object.entries(lines).map(([k, v]) => [k, `$${(v * 1000).toFixed(4)}`])),
      "per 1,000 jobs": `$${(total * 1000).toFixed(3)}`,
      "biggest line": `${biggest[0]} (${Math.round((biggest[1] / total) * 100)}%)`,
    });
  }
  console.log(`\nUsage per job (sandbox page latency ${PAGE_LATENCY_MS} ms; one client polling at suggestedPollIntervalMs, fetching the CSV once)`);
  console.table(rows);
  console.log("\nCost per 1,000 jobs at the unit prices in docs/costs.md (USD; free allowances not deducted)");
  console.table(costs);
  console.log("\nD1 rows written per job by statement (verb and table), as D1 reported them: what to cut first");
  const statementsSeen = [...new Set(Object.values(writers).flatMap(Object.keys))].sort();
  console.table(statementsSeen.map((statement) => ({ statement, ...Object.fromEntries(Object.entries(writers).map(([job, by]) => [job, by[statement] ?? 0])) })));
  console.log(
    `container s = job time / ${SESSIONS_PER_INSTANCE} sessions per ${CONTAINER_INSTANCE.type} instance, billed for its memory and disk (the idle tail before sleepAfter is not counted);` +
      " container CPU = the scraper tree's CPU s during the job, billed by active use;" +
      " worker CPU ms is workerd's whole process on this machine, an upper bound on billed CPU.",
  );
} finally {
  await stack.stop();
}
