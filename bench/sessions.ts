/**
 * Sessions a container instance holds (docs/capacity.md, "Sessions per instance"): one scraper process, the local
 * stand-in for one instance, holds K sessions at once, each a workspace running bench:cost's transactions job (12
 * months x 3 accounts, sandbox page latency 300 ms; BENCH_JOB=card|taxportal: a year of card approvals or sales tax
 * invoices) several times in a row. Starts are spread over a few seconds so
 * that logins do not all fall together, as jobs arrive in production. For each K it prints, from /proc and the
 * scraper's /stats sampled twice a second:
 *
 * - the scraper tree's (Node and Chromium) CPU seconds per session-second held, over the level and in its busiest
 *   five seconds: what a session costs whatever else runs on the machine; and its CPU seconds a job by process type;
 * - the tree's peak PSS (shared pages counted once) and RSS, in total and per session above the idle browser;
 * - the jobs' wall time against the first level's: it grows when the process, not the institution, is what a job
 *   waits for. On a machine shared with others it grows with their load too: the load average is printed.
 *
 * From the per-session figures it prints the sessions production's instance type (container-instance.ts) holds
 * under the rule below.
 */
import { mkdtempSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { scraperAuthorization } from "../contracts/scraper-protocol";
import { freePort } from "../scripts/free-port";
import { type LocalStack, startLocalStack } from "../scripts/local-stack";
import { bankLoginWorkspaces, type JobRun, percentile, runJob, stalls } from "./partner-jobs";
import { machineBusySeconds, treeCpuSeconds, treeCpuSecondsByType } from "./process-cpu";
import { treePssMb, treeRssMb } from "./process-memory";
import { CONTAINER_INSTANCE } from "./container-instance";

const ROOT = path.resolve(import.meta.dirname, "..");
const LEVELS = (process.env.BENCH_SESSIONS ?? "4,8,16,24").split(",").map(Number);
const JOBS_PER_WORKSPACE = Number(process.env.BENCH_JOBS_PER_WORKSPACE ?? 3);
const PAGE_LATENCY_MS = Number(process.env.BENCH_PAGE_LATENCY_MS ?? 300);
/** Workspace i of K starts i/K of this after the first: about one job's length, so the level's logins are spread over it. */
const SPREAD_MS = Number(process.env.BENCH_SPREAD_MS ?? 6000);
const SAMPLE_MS = 500;
/** The busiest phase: the most CPU the tree used in any window this long. */
const WINDOW_MS = 5000;
const POLL_MS = 1000;

const INSTANCE_MB = CONTAINER_INSTANCE.memoryGib * 1024;
/** Headroom: CPU demand at the busiest phase within 70% of the vCPU, memory within 60% (Chromium's spikes, a page heavier than the sandbox's). */
const RULE = { cpu: 0.7, memory: 0.6 };
/** Jobs this much slower than the first level's were waiting on CPU. */
const STRETCHED = 1.25;

const YEAR = { dateRangeStart: "2025-01-01", dateRangeEnd: "2025-12-31" };
/** bench:cost's transactions job by default; BENCH_JOB=card|taxportal runs a year of another sandbox institution's units instead. */
const JOBS = {
  bank: { providerCode: "sandbox.bank", schema: "bank.transactions.cb.v1", params: YEAR },
  card: { providerCode: "sandbox.card", schema: "card.approvals.corp.v1", params: YEAR },
  taxportal: { providerCode: "sandbox.taxportal", schema: "taxportal.tax-invoices.sales.v1", params: YEAR },
};
const JOB_NAME = process.env.BENCH_JOB ?? "bank";
if (!(JOB_NAME in JOBS)) throw new Error(`BENCH_JOB is one of ${Object.keys(JOBS).join(", ")}, not ${JOB_NAME}`);
const JOB = JOBS[JOB_NAME as keyof typeof JOBS];

interface Sample {
  at: number;
  scraperCpu: number;
  workerCpu: number;
  machineCpu: number;
  /** Open sessions plus logins in flight: the slots MAX_SESSIONS counts. */
  held: number;
  pssMb: number;
  rssMb: number;
}

async function heldSlots(stack: LocalStack): Promise<number> {
  const stats = (await (await fetch(`${stack.scraperUrl}/stats`, { headers: { Authorization: scraperAuthorization(stack.scraperSecret) } })).json()) as { activeSessions: number; loginsInFlight: number };
  return stats.activeSessions + stats.loginsInFlight;
}

async function sample(stack: LocalStack): Promise<Sample> {
  const [scraper] = stack.scraperPids();
  return {
    at: performance.now(),
    scraperCpu: treeCpuSeconds([scraper!]),
    workerCpu: treeCpuSeconds([stack.workerPid]),
    machineCpu: machineBusySeconds(),
    held: await heldSlots(stack),
    pssMb: treePssMb(scraper!),
    rssMb: treeRssMb(scraper!),
  };
}

/** Until the previous level's sessions are closed (the executor closes a job's session after its last commit). */
async function idle(stack: LocalStack): Promise<void> {
  while ((await heldSlots(stack)) > 0) await new Promise((r) => setTimeout(r, SAMPLE_MS));
}

async function level(stack: LocalStack, sessions: number) {
  await idle(stack);
  const idleSample = await sample(stack);
  const [scraperPid] = stack.scraperPids();
  const idleByType = treeCpuSecondsByType(scraperPid!);
  const samples: Sample[] = [idleSample];
  let sampling = Promise.resolve();
  const timer = setInterval(() => {
    sampling = sampling.then(async () => void samples.push(await sample(stack)));
  }, SAMPLE_MS);
  const load = loadavg()[0]!;
  const runs: JobRun[] = [];
  try {
    await Promise.all(
      Array.from({ length: sessions }, async (_, i) => {
        await new Promise((r) => setTimeout(r, (i * SPREAD_MS) / sessions));
        const seed = seeds[i]!;
        for (let j = 0; j < JOBS_PER_WORKSPACE; j++) runs.push(await runJob(stack.baseUrl, seed.apiKey, JOB, POLL_MS));
      }),
    );
  } finally {
    clearInterval(timer);
    await sampling;
  }
  samples.push(await sample(stack));
  const last = samples.at(-1)!;
  const lastByType = treeCpuSecondsByType(scraperPid!);
  const seconds = (last.at - idleSample.at) / 1000;
  // Slots held, integrated over the samples: the session-seconds the process carried.
  let sessionSeconds = 0;
  for (let i = 1; i < samples.length; i++) sessionSeconds += ((samples[i]!.held + samples[i - 1]!.held) / 2) * ((samples[i]!.at - samples[i - 1]!.at) / 1000);
  // The busiest window: the most scraper CPU over WINDOW_MS, with the slots held meanwhile.
  let busiest = { cores: 0, held: 0 };
  for (let i = 0, j = 0; j < samples.length; j++) {
    while (samples[j]!.at - samples[i]!.at > WINDOW_MS) i++;
    const span = (samples[j]!.at - samples[i]!.at) / 1000;
    if (span < WINDOW_MS / 1000 - SAMPLE_MS / 1000) continue;
    const cores = (samples[j]!.scraperCpu - samples[i]!.scraperCpu) / span;
    const held = samples.slice(i, j + 1).reduce((sum, s) => sum + s.held, 0) / (j - i + 1);
    if (cores > busiest.cores) busiest = { cores, held };
  }
  const peakPss = Math.max(...samples.map((s) => s.pssMb));
  const peakRss = Math.max(...samples.map((s) => s.rssMb));
  const peakHeld = Math.max(...samples.map((s) => s.held));
  const scraperCpu = last.scraperCpu - idleSample.scraperCpu;
  const times = runs.map((r) => r.totalMs).sort((a, b) => a - b);
  return {
    sessions,
    jobs: runs.length,
    failed: runs.filter((r) => r.kind !== "Succeeded").length,
    failures: [...new Set(runs.filter((r) => r.kind !== "Succeeded").map((r) => JSON.stringify(r.error)))],
    loadBefore: load,
    loadAfter: loadavg()[0]!,
    seconds,
    sessionSeconds,
    peakHeld,
    scraperCpu,
    cpuPerJob: scraperCpu / runs.length,
    // Where a job's CPU goes: Node, Chromium's browser, renderer, GPU and utility processes.
    cpuPerJobByType: Object.fromEntries(Object.entries(lastByType).map(([type, seconds]) => [type, Number(((seconds - (idleByType[type] ?? 0)) / runs.length).toFixed(2))])),
    cpuPerSessionSecond: scraperCpu / sessionSeconds,
    busiestCores: busiest.cores,
    busiestHeld: busiest.held,
    busiestPerSession: busiest.cores / Math.max(busiest.held, 1),
    workerCores: (last.workerCpu - idleSample.workerCpu) / seconds,
    machineCores: (last.machineCpu - idleSample.machineCpu) / seconds,
    idlePssMb: idleSample.pssMb,
    peakPssMb: peakPss,
    pssPerSessionMb: (peakPss - idleSample.pssMb) / peakHeld,
    idleRssMb: idleSample.rssMb,
    peakRssMb: peakRss,
    p50JobS: percentile(times, 50) / 1000,
    p95JobS: percentile(times, 95) / 1000,
  };
}

const maxSessions = Math.max(...LEVELS);
// The tax portal's first way in is a certificate; the bank's and the card issuer's, the ID login every seed has.
const seeds = bankLoginWorkspaces(maxSessions, "sessions").map((seed) => ({ ...seed, certificate: JOB.providerCode === "sandbox.taxportal" }));
const stack = await startLocalStack({
  port: await freePort(),
  sandboxPort: await freePort(),
  scraperPort: await freePort(),
  scraperMaxSessions: maxSessions,
  sandboxPageLatencyMs: PAGE_LATENCY_MS,
  persistTo: mkdtempSync(path.join(tmpdir(), "bench-sessions-")),
  logDir: path.join(ROOT, "test-artifacts/bench-sessions"),
  // Polling many jobs would trip the spec's 100 a minute per key; the limit is not what this measures.
  vars: { RATE_LIMIT_PER_MINUTE: "10000000", RATE_LIMIT_PER_HOUR: "10000000" },
});
try {
  await stack.seedWorkspaces(seeds);
  // Warm-up: the first compile and the browser started.
  await runJob(stack.baseUrl, seeds[0]!.apiKey, JOB, POLL_MS);
  const results = [];
  for (const sessions of LEVELS) {
    const measured = await level(stack, sessions);
    results.push(measured);
    console.log(`measured ${sessions} sessions: ${JSON.stringify(measured)}`);
  }
  const first = results[0]!;
  console.log(
    `\none scraper process, ${JOB.schema} ${JSON.stringify(JOB.params)}, ${JOBS_PER_WORKSPACE} jobs a session in a row, sandbox page latency ${PAGE_LATENCY_MS} ms, ${SAMPLE_MS} ms samples`,
  );
  console.table(
    results.map((r) => ({
      sessions: r.sessions,
      "jobs (failed)": `${r.jobs} (${r.failed})`,
      "load avg before/after": `${r.loadBefore.toFixed(1)} / ${r.loadAfter.toFixed(1)}`,
      "session-s": r.sessionSeconds.toFixed(0),
      "scraper CPU s/job": r.cpuPerJob.toFixed(2),
      "CPU s / session-s": r.cpuPerSessionSecond.toFixed(3),
      "busiest 5 s: cores (held)": `${r.busiestCores.toFixed(2)} (${r.busiestHeld.toFixed(1)})`,
      "busiest cores / session": r.busiestPerSession.toFixed(3),
      "worker / machine cores": `${r.workerCores.toFixed(2)} / ${r.machineCores.toFixed(2)}`,
      "PSS MB idle / peak": `${r.idlePssMb.toFixed(0)} / ${r.peakPssMb.toFixed(0)}`,
      "PSS MB / session": r.pssPerSessionMb.toFixed(1),
      "RSS MB idle / peak": `${r.idleRssMb.toFixed(0)} / ${r.peakRssMb.toFixed(0)}`,
      "p50 / p95 job s": `${r.p50JobS.toFixed(1)} / ${r.p95JobS.toFixed(1)}`,
      "p50 vs first": `${(r.p50JobS / first.p50JobS).toFixed(2)}x`,
    })),
  );
  for (const r of results) console.log(`${r.sessions} sessions: scraper CPU s a job by process: ${JSON.stringify(r.cpuPerJobByType)}`);
  for (const r of results) {
    // A level whose jobs took longer than the first's waited on CPU, not on the institution: its sessions were
    // stretched, so its CPU a session-second understates what a session asks for at the institution's pace.
    if (r.p50JobS > STRETCHED * first.p50JobS) {
      console.log(`${r.sessions} sessions: CPU-bound here (p50 job ${(r.p50JobS / first.p50JobS).toFixed(2)}x the first level's, machine ${r.machineCores.toFixed(2)} cores busy): no verdict from it`);
      continue;
    }
    const byCpu = Math.floor((RULE.cpu * CONTAINER_INSTANCE.vcpu) / r.busiestPerSession);
    const byMean = Math.floor((RULE.cpu * CONTAINER_INSTANCE.vcpu) / r.cpuPerSessionSecond);
    const byMemory = Math.floor((RULE.memory * INSTANCE_MB - r.idlePssMb) / r.pssPerSessionMb);
    console.log(
      `${r.sessions} sessions: a ${CONTAINER_INSTANCE.type} instance holds ${Math.min(byCpu, byMemory)} (CPU at the busiest 5 s <= ${RULE.cpu * 100}% of ${CONTAINER_INSTANCE.vcpu} vCPU: ${byCpu}; on the level's mean: ${byMean}; PSS <= ${RULE.memory * 100}% of ${INSTANCE_MB} MB: ${byMemory})${r.failed ? `; failed jobs: ${r.failures.join(", ")}` : ""}`,
    );
  }
  if (stalls.unansweredPolls) console.log(`polls unanswered and sent again: ${stalls.unansweredPolls}`);
} finally {
  await stack.stop();
}
