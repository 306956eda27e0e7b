/**
 * Capacity simulation (docs/capacity.md): drives the local stack with many workspaces, one credential each, at
 * stepped offered rates of job creation, with the sandbox answering at once (no institution latency), so what
 * limits the rate is our own stack. For each level it prints the offered and completed jobs a minute, the create
 * latency, the time a job stays PENDING, the time it runs after that, and the cores each part of the stack used (the worker:
 * `wrangler dev` with workerd and its local D1, R2, queues and Durable Objects; the scraper processes with their
 * Chromium). The first level that falls behind is where the stack saturates; the part using the most cores there,
 * with the phase that grew (creation, pending, running), is what saturated first.
 *
 * Each job lists a bank's accounts: a login, one page, one unit. That is the fixed cost every job pays, and the
 * part of a longer job that does not depend on the institution's page latency.
 */
import { mkdtempSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import path from "node:path";
import type { WorkspaceSeed } from "../scripts/demo-seed";
import { freePort } from "../scripts/free-port";
import { type LocalStack, startLocalStack } from "../scripts/local-stack";
import { bankLoginWorkspaces, type JobRun, percentile, runJob, stalls } from "./partner-jobs";
import { machineBusySeconds, treeCpuSeconds } from "./process-cpu";
import { DEFAULT_MAX_SESSIONS } from "../scraper-container/server";

const ROOT = path.resolve(import.meta.dirname, "..");
const RATES = (process.env.BENCH_RATES ?? "30,60,120,240").split(",").map(Number);
const LEVEL_SECONDS = Number(process.env.BENCH_LEVEL_SECONDS ?? 40);
const SCRAPERS = Number(process.env.BENCH_SCRAPERS ?? 2);
/** Production's sessions per container instance (scraper-container MAX_SESSIONS). */
const SESSIONS_PER_PROCESS = Number(process.env.BENCH_SESSIONS_PER_PROCESS ?? DEFAULT_MAX_SESSIONS);
/** A level keeps up when it completes at least this share of the offered rate. */
const KEEPS_UP = 0.8;
const POLL_MS = 500;
const JOB = { providerCode: "sandbox.bank", schema: "bank.accounts.cb.v1" };

async function level(stack: LocalStack, rate: number, seeds: WorkspaceSeed[]) {
  const count = Math.round((rate * LEVEL_SECONDS) / 60);
  const mine = seeds.splice(0, count);
  if (mine.length < count) throw new Error(`need ${count} more workspaces: raise BENCH_WORKSPACES`);
  const cpu = () => ({ worker: treeCpuSeconds([stack.workerPid]), scrapers: treeCpuSeconds(stack.scraperPids()), machine: machineBusySeconds() });
  const before = cpu();
  const started = performance.now();
  // Created on a steady clock, not one after another: a slow create does not lower the offered rate.
  const timings = await Promise.all(
    mine.map(async (seed, i) => {
      await new Promise((r) => setTimeout(r, (i * 60_000) / rate));
      return runJob(stack.baseUrl, seed.apiKey, JOB, POLL_MS);
    }),
  );
  const wallS = (Math.max(...timings.map((t) => t.endedAt)) - started) / 1000;
  const after = cpu();
  const sorted = (pick: (t: JobRun) => number) => timings.map(pick).sort((a, b) => a - b);
  const [create, pending, run] = [sorted((t) => t.createMs), sorted((t) => t.pendingMs), sorted((t) => t.runMs)];
  const cores = {
    worker: (after.worker - before.worker) / wallS,
    scrapers: (after.scrapers - before.scrapers) / wallS,
    machine: (after.machine - before.machine) / wallS,
  };
  return {
    offered: rate,
    jobs: count,
    failed: timings.filter((t) => t.kind !== "Succeeded").length,
    completedPerMinute: (count / wallS) * 60,
    createP50: percentile(create, 50),
    createP99: percentile(create, 99),
    pendingP50: percentile(pending, 50),
    runP50: percentile(run, 50),
    cores,
  };
}

const workspaces = Number(process.env.BENCH_WORKSPACES ?? Math.ceil(RATES.reduce((sum, rate) => sum + (rate * LEVEL_SECONDS) / 60, 0)) + SCRAPERS);
const stack = await startLocalStack({
  port: await freePort(),
  sandboxPort: await freePort(),
  scraperPort: await freePort(),
  scrapers: SCRAPERS,
  scraperMaxSessions: SESSIONS_PER_PROCESS,
  persistTo: mkdtempSync(path.join(tmpdir(), "bench-capacity-")),
  logDir: path.join(ROOT, "test-artifacts/bench-capacity"),
  // Polling hundreds of jobs would trip the spec's 100 a minute per key; the limit is not what this measures.
  vars: { RATE_LIMIT_PER_MINUTE: "10000000", RATE_LIMIT_PER_HOUR: "10000000" },
});
try {
  const seeds = bankLoginWorkspaces(workspaces, "capacity");
  await stack.seedWorkspaces(seeds);
  // Warm-up: the first compile, and each scraper's browser started.
  await Promise.all(seeds.splice(0, SCRAPERS).map((seed) => runJob(stack.baseUrl, seed.apiKey, JOB, POLL_MS)));

  const results = [];
  for (const rate of RATES) {
    const measured = await level(stack, rate, seeds);
    results.push(measured);
    console.log(`offered ${rate} jobs/min: ${JSON.stringify(measured)}`);
  }
  console.log(`\n${SCRAPERS} scraper processes x ${SESSIONS_PER_PROCESS} sessions, no institution latency, ${LEVEL_SECONDS} s a level, ${workspaces} workspaces, this machine's ${cpus().length} cores`);
  console.table(
    results.map((r) => ({
      "offered /min": r.offered,
      "completed /min": r.completedPerMinute.toFixed(1),
      "completed / offered": `${((r.completedPerMinute / r.offered) * 100).toFixed(0)}%`,
      failed: r.failed,
      "create p50 ms": r.createP50.toFixed(0),
      "create p99 ms": r.createP99.toFixed(0),
      "pending p50 s": (r.pendingP50 / 1000).toFixed(1),
      "run p50 s": (r.runP50 / 1000).toFixed(1),
      "worker cores": r.cores.worker.toFixed(2),
      "scraper cores": r.cores.scrapers.toFixed(2),
      "machine cores": r.cores.machine.toFixed(2),
    })),
  );
  const saturated = results.find((r) => r.completedPerMinute < KEEPS_UP * r.offered);
  if (!saturated) {
    console.log(`kept up at every level, up to ${RATES.at(-1)} jobs/min`);
  } else {
    const busiest = saturated.cores.worker >= saturated.cores.scrapers ? "the worker (workerd with local D1, R2, queues, Durable Objects)" : "the scrapers (Chromium)";
    const first = results[0]!;
    // Against at least a poll's interval: a phase shorter than that at the first level reads as zero.
    const growth = (now: number, then: number) => now / Math.max(then, POLL_MS);
    const grew = [
      ["creation", growth(saturated.createP50, first.createP50)],
      ["pending (queue, lock, login, planning)", growth(saturated.pendingP50, first.pendingP50)],
      ["running the planned units", growth(saturated.runP50, first.runP50)],
    ] as const;
    const phase = grew.reduce((a, b) => (b[1] > a[1] ? b : a));
    console.log(
      `saturated at ${saturated.offered} jobs/min (completed ${saturated.completedPerMinute.toFixed(1)}): busiest part ${busiest} at ${Math.max(saturated.cores.worker, saturated.cores.scrapers).toFixed(2)} cores of the machine's ${saturated.cores.machine.toFixed(2)} busy; the phase that grew most: ${phase[0]} (${phase[1].toFixed(1)}x the first level's p50)`,
    );
  }
  if (stalls.unansweredPolls) console.log(`polls unanswered and sent again: ${stalls.unansweredPolls}`);
} finally {
  await stack.stop();
}
