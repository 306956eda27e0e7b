/**
 * Scale-out benchmark, all figures from one run: many jobs at once across
 * many workspaces (one credential each) against the local stack with 1, 2
 * and 4 scraper processes (the local stand-in for container instances,
 * chosen per login as production chooses instances), with the sandbox
 * answering every page after a realistic latency, so this 2-core machine
 * measures concurrency rather than its CPU. Prints jobs per minute, p50/p95
 * job time, logins per job and CPU seconds per job for each, and the
 * throughput ratios. Targets: >= 1.7x from 1 to 2 processes, >= 3x from 1 to
 * 4, one login per job, no failed jobs.
 *
 * Each process holds 3 sessions here (production's instances hold 8): the full
 * browser spent 7 to 10 CPU seconds on a job (the headless shell about 6), and with more sessions a process, four
 * processes' worth of concurrent jobs need most of this machine's two cores,
 * so the benchmark would measure the cores, not the scale-out. With 4, the
 * 4-process level used 1.6 cores (121 CPU seconds in 76 s) and a job there
 * took 76 s against 52 s with 4 at a time (docs/benchmarks.md).
 *
 * Each workspace runs its jobs one after another (jobs on one credential
 * run one at a time: docs/scheduling.md); the workspaces run side by side.
 */
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { scraperAuthorization } from "../contracts/scraper-protocol";
import { freePort } from "../scripts/free-port";
import type { WorkspaceSeed } from "../scripts/demo-seed";
import { type LocalStack, startLocalStack } from "../scripts/local-stack";
import { bankLoginWorkspaces, type JobRun, percentile, POLL_TIMEOUT_MS, runJob, stalls } from "./partner-jobs";
import { treeCpuSeconds } from "./process-cpu";

const ROOT = path.resolve(import.meta.dirname, "..");
const PROCESS_COUNTS = (process.env.BENCH_SCRAPERS ?? "1,2,4").split(",").map(Number);
const SESSIONS_PER_PROCESS = Number(process.env.BENCH_SESSIONS_PER_PROCESS ?? 3);
/** Enough workspaces to fill four processes' sessions. */
const WORKSPACES = Number(process.env.BENCH_WORKSPACES ?? 4 * SESSIONS_PER_PROCESS);
const JOBS_PER_WORKSPACE = Number(process.env.BENCH_JOBS_PER_WORKSPACE ?? 1);
const PAGE_LATENCY_MS = Number(process.env.BENCH_PAGE_LATENCY_MS ?? 3000);
const POLL_MS = 1000;
/** What the workspaces collect: each with its credentials, one job a workspace at a time. */
interface Workload {
  job: Record<string, unknown>;
  seeds(count: number): WorkspaceSeed[];
}

/** One month of three accounts through the browser adapter: a login, the account list and three units. */
const BANK: Workload = {
  job: { providerCode: "sandbox.bank", schema: "bank.transactions.cb.v1", params: { dateRangeStart: "2026-03-01", dateRangeEnd: "2026-03-31" } },
  seeds: (count) => bankLoginWorkspaces(count, "bench"),
};
/**
 * One quarter of purchase cash receipts through the protocol adapter (Hometax, against its replica): a certificate
 * login and the portal's JSON calls, no browser.
 */
const HOMETAX: Workload = {
  job: { providerCode: "hometax", schema: "taxportal.cash-receipts.purchase.v1", params: { dateRangeStart: "2026-01-01", dateRangeEnd: "2026-03-31" } },
  seeds: (count) => bankLoginWorkspaces(count, "bench-hometax").map((seed) => ({ ...seed, certificate: true })),
};

async function totalLogins(stack: LocalStack): Promise<number> {
  const headers = { Authorization: scraperAuthorization(stack.scraperSecret) };
  const stats = await Promise.all(stack.scraperUrls.map(async (url) => ((await (await fetch(`${url}/stats`, { headers })).json()) as { logins: number }).logins));
  return stats.reduce((a, b) => a + b, 0);
}

async function measure(scrapers: number, workload: Workload = BANK) {
  const stack = await startLocalStack({
    port: await freePort(),
    sandboxPort: await freePort(),
    scraperPort: await freePort(),
    scrapers,
    scraperMaxSessions: SESSIONS_PER_PROCESS,
    sandboxPageLatencyMs: PAGE_LATENCY_MS,
    // The cron sweep runs every minute in production (wrangler.toml): chains it restarts count as they would there.
    sweepEveryMs: 60_000,
    persistTo: mkdtempSync(path.join(tmpdir(), `bench-scale-${scrapers}-`)),
    logDir: path.join(ROOT, `test-artifacts/bench-scale-${scrapers}`),
    // Polling many jobs would trip the spec's 100/minute; the limit is not what this measures.
    vars: { RATE_LIMIT_PER_MINUTE: "10000000", RATE_LIMIT_PER_HOUR: "10000000" },
  });
  try {
    const seeds = workload.seeds(WORKSPACES);
    await stack.seedWorkspaces(seeds);
    // Warm-up: first compile, browsers started, one on each process.
    await Promise.all(seeds.slice(0, scrapers).map((seed) => runJob(stack.baseUrl, seed.apiKey, workload.job, POLL_MS)));

    const pids = [stack.workerPid, ...stack.scraperPids()];
    const [loginsBefore, cpuBefore] = [await totalLogins(stack), treeCpuSeconds(pids)];
    const started = performance.now();
    const outcomes = (
      await Promise.all(
        seeds.map(async (seed) => {
          const mine: JobRun[] = [];
          for (let j = 0; j < JOBS_PER_WORKSPACE; j++) mine.push(await runJob(stack.baseUrl, seed.apiKey, workload.job, POLL_MS));
          return mine;
        }),
      )
    ).flat();
    const wallMs = performance.now() - started;
    const unanswered = stalls.unansweredPolls;
    stalls.unansweredPolls = 0;
    const [logins, cpu] = [(await totalLogins(stack)) - loginsBefore, treeCpuSeconds(pids) - cpuBefore];
    const times = outcomes.map((o) => o.totalMs).sort((a, b) => a - b);
    const failed = outcomes.filter((o) => o.kind !== "Succeeded");
    return {
      scrapers,
      jobs: outcomes.length,
      failed: failed.length,
      failures: [...new Set(failed.map((o) => JSON.stringify(o.error)))],
      jobsPerMinute: outcomes.length / (wallMs / 60_000),
      p50: percentile(times, 50) / 1000,
      p95: percentile(times, 95) / 1000,
      loginsPerJob: logins / outcomes.length,
      cpuPerJob: cpu / outcomes.length,
      unansweredPolls: unanswered,
    };
  } finally {
    await stack.stop();
  }
}

const results = [];
for (const scrapers of PROCESS_COUNTS) {
  const measured = await measure(scrapers);
  results.push(measured);
  console.log(`measured ${scrapers} scraper process(es): ${JSON.stringify(measured)}`);
}
const base = results[0]!;
console.log(`\n${WORKSPACES} workspaces x ${JOBS_PER_WORKSPACE} jobs (1 month, 3 accounts each), sandbox page latency ${PAGE_LATENCY_MS} ms, ${SESSIONS_PER_PROCESS} sessions per process, 2-core machine`);
console.table(
  results.map((r) => ({
    "scraper processes": r.scrapers,
    jobs: r.jobs,
    failed: r.failed,
    "jobs/min": r.jobsPerMinute.toFixed(1),
    "throughput vs 1": `${(r.jobsPerMinute / base.jobsPerMinute).toFixed(2)}x`,
    "p50 job s": r.p50.toFixed(1),
    "p95 job s": r.p95.toFixed(1),
    "logins/job": r.loginsPerJob.toFixed(2),
    "CPU s/job": r.cpuPerJob.toFixed(2),
    [`polls unanswered in ${POLL_TIMEOUT_MS / 1000} s`]: r.unansweredPolls,
  })),
);
for (const r of results.slice(1)) {
  const target = r.scrapers === 2 ? 1.7 : r.scrapers === 4 ? 3 : null;
  if (target) console.log(`throughput ${base.scrapers} -> ${r.scrapers} processes: ${(r.jobsPerMinute / base.jobsPerMinute).toFixed(2)}x (target >= ${target}x)`);
}
for (const r of results) {
  console.log(`${r.scrapers} process(es): logins per job ${r.loginsPerJob.toFixed(2)} (target 1), failed jobs ${r.failed} (target 0)${r.failures.length ? `: ${r.failures.join(", ")}` : ""}`);
}

// The CPU a job costs with the scraper's browser against Debian's full Chromium, at the last level, in this run
// (issue 27's target: at least halved). Skipped where the full browser is not installed.
const FULL_CHROMIUM = "/usr/bin/chromium";
if (existsSync(FULL_CHROMIUM) && process.env.BENCH_COMPARE_BROWSER !== "0") {
  const shell = results.at(-1)!;
  process.env.CHROMIUM_PATH = FULL_CHROMIUM;
  const full = await measure(shell.scrapers);
  delete process.env.CHROMIUM_PATH;
  console.log(`measured ${full.scrapers} scraper process(es) with full Chromium: ${JSON.stringify(full)}`);
  console.log(
    `CPU s/job at ${shell.scrapers} processes: headless shell ${shell.cpuPerJob.toFixed(2)}, full Chromium ${full.cpuPerJob.toFixed(2)}: ${(full.cpuPerJob / shell.cpuPerJob).toFixed(2)}x less (target >= 2x)`,
  );
}

// The protocol adapter's CPU a job beside the browser adapter's, at the last level, in this run (issue 27: the tax
// portal's protocol adapter is the cheapest path). Its job differs (a certificate login and JSON calls against one
// quarter's receipts, where the bank's is a browser login, the account list and three months' pages), so the figure
// compares what a job costs on each path, not the same work.
if (process.env.BENCH_COMPARE_PROTOCOL !== "0") {
  const browser = results.at(-1)!;
  const protocol = await measure(browser.scrapers, HOMETAX);
  console.log(`measured ${protocol.scrapers} scraper process(es) with the hometax protocol adapter: ${JSON.stringify(protocol)}`);
  console.log(
    `CPU s/job at ${browser.scrapers} processes: browser adapter (sandbox.bank) ${browser.cpuPerJob.toFixed(2)}, protocol adapter (hometax) ${protocol.cpuPerJob.toFixed(2)}: ${(browser.cpuPerJob / protocol.cpuPerJob).toFixed(2)}x less; hometax jobs failed ${protocol.failed}${protocol.failures.length ? `: ${protocol.failures.join(", ")}` : ""}`,
  );
}
