// start-order: 1 (why: vitest.e2e.config.ts)
import { beforeAll, describe, expect, it } from "vitest";
import { bankGroundTruth } from "../../sandbox/sandbox-bank/ground-truth";
import { client, type Stack, startStack } from "../support/e2e/stack";

type Json = Record<string, any>;

let stack: Stack;
let api: ReturnType<typeof client>;
let scheduleApi: ReturnType<typeof client>;
let schedulePath: string;
/** Every time this file's worker was down, for the schedule's count of minutes it could not run. */
const downtimes: { down: number; up: number }[] = [];

async function restartWorker() {
  const down = Date.now();
  await stack.killWorker();
  await stack.startWorker();
  downtimes.push({ down, up: Date.now() });
}

beforeAll(async () => {
  stack = await startStack("restarts");
  api = client(stack);
  // The every-minute schedule starts with the file, so the minutes it needs pass while the other faults run (and it
  // lives through their restarts too); its own test at the end checks every run.
  scheduleApi = client(stack, stack.named["faults/schedule"].apiKey);
  const created = await scheduleApi.json("POST", "/api/v1/schedules", { providerCode: "sandbox.bank", schema: "bank.accounts.cb.v1", cron: "* * * * *" });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  schedulePath = `/api/v1/schedules/${created.body.id}`;
});

const RANGE = { dateRangeStart: "2026-01-01", dateRangeEnd: "2026-03-31" };
const TRUTH = bankGroundTruth("user_good", { start: RANGE.dateRangeStart, end: RANGE.dateRangeEnd }).transactions;
const byIdentifier = (a: Json, b: Json) => (a.identifier < b.identifier ? -1 : a.identifier > b.identifier ? 1 : 0);

async function expectExactResults(id: string) {
  const { body } = await api.json("GET", `/api/v1/data-jobs/${id}/results`);
  expect(body.totalCount).toBe(TRUTH.length);
  expect([...body.data].sort(byIdentifier)).toEqual([...TRUTH].sort(byIdentifier));
}

describe("an institution's maintenance on the real local stack", () => {
  it("holds a job created inside the bank's window until it ends, saying so, then collects the account list exactly", async () => {
    const clock = `${stack.sandboxUrl}/sandbox/clock`;
    // Six seconds before the end of the sandbox bank's 00:00-00:30 window, by the sandbox's own clock: time to create the job.
    const day = new Date(Date.now() + 9 * 3_600_000).toISOString().slice(0, 10);
    await fetch(clock, { method: "PUT", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ at: `${day}T00:29:54+09:00` }) });
    try {
      const provider = (await api.json("GET", "/api/v1/providers/sandbox.bank")).body;
      expect(Date.parse(provider.maintenance[0].startsAt)).toBeLessThan(Date.now());
      const job = await api.createJob({ providerCode: "sandbox.bank", schema: "bank.accounts.cb.v1" });
      const waits: string[] = [];
      const done = await api.waitForJob(job.id, (snapshot) => void (snapshot.maintenanceUntil && waits.push(snapshot.maintenanceUntil)));
      const truth = bankGroundTruth("user_good").accounts;
      expect(done, JSON.stringify(done.error)).toMatchObject({ kind: "Succeeded", recordCount: truth.length });
      expect(waits.length).toBeGreaterThan(0);
      expect(Date.parse(waits[0]!)).toBeGreaterThan(Date.parse(provider.maintenance[0].endsAt));
      expect((await api.json("GET", `/api/v1/data-jobs/${job.id}/results`)).body.data).toEqual(truth);
    } finally {
      await fetch(clock, { method: "DELETE" });
    }
  });
});

describe("faults on the real local stack: work is never lost", () => {
  it("narrows to one account and keeps exact results when the scraper process is killed mid-job", async () => {
    const account = bankGroundTruth("user_good").accounts[0]!.accountNumber;
    // A year, twelve units: a delivery can commit three quick units between two polls, and the kill must land while
    // some are committed and some are still to go.
    const year = { dateRangeStart: "2025-04-01", dateRangeEnd: "2026-03-31" };
    const job = await api.createJob({ providerCode: "sandbox.bank", schema: "bank.transactions.cb.v1", params: { ...year, accountNumber: [account] } });
    let killedAt: Json | null = null;
    const done = await api.waitForJob(job.id, async (snapshot) => {
      if (killedAt || snapshot.completedTaskCount < 1 || snapshot.completedTaskCount >= snapshot.totalTaskCount) return;
      killedAt = snapshot;
      await stack.killScraper();
      await new Promise((r) => setTimeout(r, 1500));
      await stack.startScraper();
    });
    expect(killedAt).toMatchObject({ phase: "RUNNING", totalTaskCount: 12 });
    const truth = bankGroundTruth("user_good", { start: year.dateRangeStart, end: year.dateRangeEnd }).transactions.filter((t) => t.accountNumber === account);
    expect(done, JSON.stringify(done.error)).toMatchObject({ kind: "Succeeded", recordCount: truth.length });
    const { body } = await api.json("GET", `/api/v1/data-jobs/${job.id}/results`);
    expect([...body.data].sort(byIdentifier)).toEqual([...truth].sort(byIdentifier));
  });
  it("plans a job again when the worker died before planning it and its plan message went with the queue", async () => {
    // No scraper: the first plan delivery cannot finish, so the job is surely PENDING when the worker dies.
    await stack.killScraper();
    const job = await api.createJob({ providerCode: "sandbox.bank", schema: "bank.transactions.cb.v1", params: RANGE });
    await restartWorker();
    expect((await api.json("GET", `/api/v1/data-jobs/${job.id}`)).body).toMatchObject({ kind: "InProgress", phase: "PENDING" });
    await stack.startScraper();

    const done = await api.waitForJob(job.id);
    expect(done, JSON.stringify(done.error)).toMatchObject({ kind: "Succeeded", recordCount: TRUTH.length });
    await expectExactResults(job.id);
  });

  it("finishes a job exactly when the worker process is killed mid-chain and restarted on the same state", async () => {
    const job = await api.createJob({ providerCode: "sandbox.bank", schema: "bank.transactions.cb.v1", params: RANGE });
    let killedAt: Json | null = null;
    const done = await api.waitForJob(job.id, async (snapshot) => {
      if (killedAt || snapshot.completedTaskCount < 2) return;
      killedAt = snapshot;
      await restartWorker();
    });
    expect(killedAt).toMatchObject({ phase: "RUNNING", totalTaskCount: 9 });
    expect(killedAt!.completedTaskCount).toBeLessThan(9);
    expect(done, JSON.stringify(done.error)).toMatchObject({ kind: "Succeeded", recordCount: TRUTH.length });
    await expectExactResults(job.id);
  });

});

describe("schedules on the real local stack", () => {
  it("runs a schedule every minute across restarts of the worker, each occurrence at most once and every run succeeding", async () => {
    const runs = async (): Promise<Json[]> => (await scheduleApi.json("GET", `${schedulePath}/runs?limit=100`)).body.items;
    const until = async (done: (items: Json[]) => boolean) => {
      for (const deadline = Date.now() + 300_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 1000))) {
        const items = await runs();
        if (done(items)) return items;
      }
      throw new Error(`schedule runs: ${JSON.stringify(await runs())}`);
    };
    // A run after the last of the file's restarts: the schedule went on by itself, from the object's alarm on disk.
    expect(downtimes.length).toBeGreaterThan(0);
    const { up } = downtimes.at(-1)!;
    const items = await until((all) => all.some((run) => Date.parse(run.scheduledFor) > up));
    const schedule = (await scheduleApi.json("POST", `${schedulePath}/pause`)).body;

    const occurrences = items.map((run) => Date.parse(run.scheduledFor)).sort((a, b) => a - b);
    expect(new Set(occurrences).size).toBe(occurrences.length);
    for (const at of occurrences) expect(at % 60_000).toBe(0);
    // Every minute between the first run and the last ran, but for minutes skipped while a run was still going
    // (counted on the schedule) and minutes that began while the worker was down (the latest of those runs late).
    const minutes = (occurrences.at(-1)! - occurrences[0]!) / 60_000 + 1;
    const downMinutes = downtimes.reduce((sum, { down, up }) => sum + Math.ceil((up - down) / 60_000) + 1, 0);
    expect(minutes - occurrences.length).toBeLessThanOrEqual(schedule.skippedRuns + downMinutes);
    const truth = bankGroundTruth("user_good").accounts;
    for (const run of items) {
      const done = await scheduleApi.waitForJob(run.id);
      expect(done, JSON.stringify(done.error)).toMatchObject({ kind: "Succeeded", recordCount: truth.length });
    }
  });
});
