// start-order: 1 (why: vitest.config.ts)
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { createJob } from "../../../../worker/domain/jobs/create";
import { JobLifecycle } from "../../../../worker/domain/jobs/lifecycle";
import { executeMessage } from "../../../../worker/domain/pipeline/executor";
import { unitResultsKey } from "../../../../worker/domain/results/keys";
import { bankGroundTruth } from "../../../../sandbox/sandbox-bank/ground-truth";
import { accountsOf } from "../../../../sandbox/sandbox-bank/ledger";
import { type CredentialLock, type LeaseGrant, credentialLock } from "../../../../worker/domain/pipeline/credential-lock";
import type { LockPort } from "../../../../worker/domain/pipeline/ports";
import { addCredential, bankTransaction, callJson, createWorkspace, withCapturedQueue } from "../../../support/workers/helpers";
import { storeUnitResults } from "../../../../worker/domain/results/unit-results";
import { BankTransactionRecord } from "../../../../contracts/records/bank";
import { finishedUnits } from "../../../../worker/domain/jobs/results-rows";
import { committedRecords, harness, jobRow, newJob, RANGE } from "../../../support/workers/pipeline-harness";
import { rowsWrittenMeter } from "../../../support/workers/rows-written";
import { ContainerScraper } from "../../../../worker/domain/scraper/container-client";
import { type ScraperPort, SessionGone } from "../../../../worker/domain/scraper/port";
import { ProviderFailure } from "../../../../collectors/adapter";
import { findProvider } from "../../../../worker/domain/catalog/providers";
import { progressText } from "../../../../worker/console/progress-text";

/** A unit's DONE row as commits wrote it before they marked the plan, from its plan entry and the mark its commit left. */
const doneRow = (jobId: string, unitIndex: number, entry: Record<string, any>) =>
  env.DB.prepare(
    `INSERT INTO task_units (job_id, unit_index, target_id, target_attributes, segment_start, segment_end, status, record_count, result_id, result_unit, json_offset, json_end, csv_offset, csv_end, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, 'DONE', ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).bind(
    jobId, unitIndex, entry.targetId, JSON.stringify(entry.targetAttributes), entry.segmentStart, entry.segmentEnd, entry.committed.recordCount,
    entry.committed.resultId, entry.committed.resultUnit, entry.committed.jsonOffset, entry.committed.jsonEnd, entry.committed.csvOffset, entry.committed.csvEnd, entry.committed.at,
  );

/** A job's plan entries as stored, with the marks of its units' commits. */
const planEntries = async (jobId: string): Promise<Record<string, any>[]> =>
  JSON.parse((await env.DB.prepare("SELECT units FROM job_plans WHERE job_id = ?").bind(jobId).first<{ units: string }>())!.units);

/** A planned job of six units whose first unit is committed, the rest queued in the harness. */
async function firstUnitCommitted() {
  const { job, plan } = await newJob();
  const h = harness();
  await executeMessage(h.deps, plan);
  await executeMessage(h.deps, h.queued.shift()!);
  return { job, h };
}

/** The job succeeded with each of its six units counted once and every record of the sandbox's truth served once. */
async function expectEveryRecordOnce(jobId: string): Promise<void> {
  const truth = bankGroundTruth("user_good", { start: RANGE.dateRangeStart, end: RANGE.dateRangeEnd }).transactions;
  expect(await jobRow(jobId)).toMatchObject({ status: "SUCCEEDED", total_task_count: 6, completed_task_count: 6, record_count: truth.length });
  const key = (r: Record<string, unknown>) => String(r.identifier);
  expect((await committedRecords(jobId)).map(key).sort()).toEqual(truth.map(key).sort());
}

/** Whether the scraper still knows a session: a closed one is gone (404). */
/** What the scraper says of a session: it serves it, it has none by that id, or it failed to answer (a loaded machine). */
/** "alive", "gone", or what else the scraper answered (so a failure under load says what it met). */
async function sessionState(sessionId: string): Promise<string> {
  try {
    await new ContainerScraper(env.SCRAPER_URL!, env.SCRAPER_SHARED_SECRET).targets(sessionId, "bank.accounts.cb.v1");
    return "alive";
  } catch (err) {
    return err instanceof SessionGone ? "gone" : `unknown: ${err instanceof ProviderFailure ? err.code : ""} ${(err as Error).message}`;
  }
}

/** The real scraper behind a door shut for its first `refusals` logins, as a full engine's is. */
function engineFullFor(refusals: number): ScraperPort {
  const real = harness().deps.scraperFor(findProvider("sandbox.bank")!);
  return {
    openSession: (providerCode, credential, businessNumber) =>
      refusals-- > 0 ? Promise.reject(new ProviderFailure("ENGINE_CONCURRENCY_LIMIT", "full", 10)) : real.openSession(providerCode, credential, businessNumber),
    ready: (sessionId) => real.ready(sessionId),
    targets: (sessionId, schema) => real.targets(sessionId, schema),
    collect: (sessionId, unit) => real.collect(sessionId, unit),
    closeSession: (sessionId) => real.closeSession(sessionId),
  };
}

/** A credential's real lock that records each grant and, after each renewal, the lease's end as the object stores it. */
function recordingLock(real: LockPort, credentialId: string) {
  const grants: LeaseGrant[] = [];
  const renewals: { held: boolean; leaseUntil: number }[] = [];
  const storedLeaseUntil = () =>
    runInDurableObject(credentialLock(env, credentialId), (_o: CredentialLock, state) => state.storage.sql.exec<{ u: number }>("SELECT lease_until AS u FROM lease").one().u);
  const lock: LockPort & { grants: LeaseGrant[]; renewals: typeof renewals } = {
    grants,
    renewals,
    acquire: async (jobId, leaseMs) => {
      const result = await real.acquire(jobId, leaseMs);
      if (result.granted) grants.push(result);
      return result;
    },
    renew: async (fence, leaseMs) => {
      const held = await real.renew(fence, leaseMs);
      renewals.push({ held, leaseUntil: await storedLeaseUntil() });
      return held;
    },
    park: (fence) => real.park(fence),
    rememberSession: (fence, sessionId, keepMs) => real.rememberSession(fence, sessionId, keepMs),
    forgetSession: (fence) => real.forgetSession(fence),
    holderAsk: () => real.holderAsk(),
    acquireOrQueue: async (jobId, leaseMs, ticket) => {
      const result = await real.acquireOrQueue(jobId, leaseMs, ticket);
      if (result.granted) grants.push(result);
      return result;
    },
    release: (jobId, leaseMs) => real.release(jobId, leaseMs),
  };
  return lock;
}

describe("unit executor on real components", () => {
  it("plans units per account x 31-day window, runs the chain on one login and stores exact records", async () => {
    const { job, plan } = await newJob();
    const h = harness();
    h.queued.push(plan);
    await h.drain();
    expect(h.logins()).toBe(1);
    const row = await jobRow(job.id);
    const truth = bankGroundTruth("user_good", { start: RANGE.dateRangeStart, end: RANGE.dateRangeEnd }).transactions;
    expect(row).toMatchObject({ status: "SUCCEEDED", total_task_count: 6, completed_task_count: 6, record_count: truth.length });
    const stored = await committedRecords(job.id);
    const key = (r: Record<string, unknown>) => String(r.identifier);
    expect(stored.map(key).sort()).toEqual(truth.map(key).sort());
  });

  it("writes a job's plan as one row whatever its units, and its units' commits into it, what the plan named kept", async () => {
    const meter = rowsWrittenMeter(env.DB);
    const lifecycle = new JobLifecycle({ ...withCapturedQueue().env, DB: meter.db });
    const planWrites = async (units: number) => {
      const { job } = await newJob();
      const planned = Array.from({ length: units }, (_, i) => ({ target: { id: `acct-${i % 3}`, attributes: { currencyCode: "KRW" } }, segment: { start: "2026-02-01", end: "2026-02-28" } }));
      const written = await meter.during(async () => expect(await lifecycle.planned(job, planned, job.leaseFence, Date.now())).toEqual({ next: 0, finished: false }));
      expect((await env.DB.prepare("SELECT count(*) AS n FROM task_units WHERE job_id = ?").bind(job.id).first<{ n: number }>())!.n).toBe(0);
      return written;
    };
    expect(await planWrites(36)).toBe(await planWrites(1));

    const { job, plan } = await newJob();
    const h = harness();
    await executeMessage(h.deps, plan);
    expect((await env.DB.prepare("SELECT count(*) AS n FROM task_units WHERE job_id = ?").bind(job.id).first<{ n: number }>())!.n).toBe(0);
    const entries = await planEntries(job.id);
    expect(entries).toHaveLength(6);
    await h.drain();
    expect(await jobRow(job.id)).toMatchObject({ status: "SUCCEEDED", completed_task_count: 6 });
    expect((await env.DB.prepare("SELECT count(*) AS n FROM task_units WHERE job_id = ?").bind(job.id).first<{ n: number }>())!.n).toBe(0);
    const committed = await planEntries(job.id);
    expect(committed).toEqual(entries.map((e: Record<string, unknown>) => ({ ...e, committed: expect.objectContaining({ recordCount: expect.any(Number), at: expect.any(Number) }) })));
  });

  it("commits units collected together as one row write whatever their number, each served and counted once", async () => {
    const meter = rowsWrittenMeter(env.DB);
    const lifecycle = new JobLifecycle({ ...withCapturedQueue().env, DB: meter.db });
    const commitWrites = async (units: number) => {
      const { job } = await newJob();
      // One unit more than the commit holds, so the commit does not also succeed the job.
      const planned = Array.from({ length: units + 1 }, (_, i) => ({ target: { id: `acct-${i % 3}`, attributes: {} }, segment: { start: "2026-02-01", end: "2026-02-28" } }));
      await lifecycle.planned(job, planned, job.leaseFence, Date.now());
      const collected = Array.from({ length: units }, (_, i) => ({ unitIndex: i, records: [bankTransaction(`u${i}-a`, null, i), bankTransaction(`u${i}-b`, "이체", -i)] }));
      const stored = await storeUnitResults(env.RESULTS, job.id, BankTransactionRecord, collected);
      const written = await meter.during(async () => expect(await lifecycle.unitsCommitted(job, stored, job.leaseFence, Date.now())).toEqual({ next: units, finished: false }));
      expect(await jobRow(job.id)).toMatchObject({ completed_task_count: units, record_count: 2 * units });
      // The same commit again (a redelivered one) changes nothing: each unit counts once.
      expect(await lifecycle.unitsCommitted(job, stored, job.leaseFence, Date.now())).toEqual({ next: null, finished: false });
      expect(await jobRow(job.id)).toMatchObject({ completed_task_count: units, record_count: 2 * units });
      expect(await lifecycle.unit(job.id, units - 1)).toBeNull();
      expect(await lifecycle.unit(job.id, units)).toMatchObject({ unitIndex: units, targetId: `acct-${units % 3}` });
      expect(await lifecycle.queuedUnitAfter(job.id, 0)).toMatchObject({ unitIndex: units });
      expect((await finishedUnits(env.DB, job.id)).units).toEqual(stored);
      expect((await committedRecords(job.id)).map((r) => r.identifier)).toEqual(collected.flatMap((u) => u.records.map((r) => r.identifier)));
      return written;
    };
    expect(await commitWrites(16)).toBe(await commitWrites(1));
  });

  it("finishes a job planned before drizzle/0051, its units' rows written QUEUED at planning and no plan, with the records a new job stores", async () => {
    const { job, h } = await firstUnitCommitted();
    // As the planning before 0051 left it (or a version still running while it rolled out), its first unit committed
    // since: a row a unit, the first DONE, the rest QUEUED, and no plan.
    const entries = await planEntries(job.id);
    await env.DB.batch([
      env.DB.prepare("DELETE FROM job_plans WHERE job_id = ?").bind(job.id),
      doneRow(job.id, 0, entries[0]!),
      ...entries.slice(1).map((e, i) =>
        env.DB.prepare("INSERT INTO task_units (job_id, unit_index, target_id, target_attributes, segment_start, segment_end, status, updated_at) VALUES (?, ?, ?, ?, ?, ?, 'QUEUED', ?)")
          .bind(job.id, i + 1, e.targetId, JSON.stringify(e.targetAttributes), e.segmentStart, e.segmentEnd, Date.now()),
      ),
    ]);

    await h.drain();
    await expectEveryRecordOnce(job.id);
    const rows = await env.DB.prepare("SELECT unit_index, status, target_id, segment_start FROM task_units WHERE job_id = ? ORDER BY unit_index").bind(job.id).all();
    expect(rows.results).toEqual(entries.map((e, i) => ({ unit_index: i, status: "DONE", target_id: e.targetId, segment_start: e.segmentStart })));
  });

  it("finishes a job whose first unit was committed as a DONE row (drizzle/0051 to stop 68), its other units marked in its plan, each counted once", async () => {
    const { job, h } = await firstUnitCommitted();
    const entries = await planEntries(job.id);
    // Its first unit's commit as the previous version wrote it: a DONE row, its plan entry as planned.
    const { committed: _first, ...planned } = entries[0]!;
    await env.DB.batch([
      env.DB.prepare("UPDATE job_plans SET units = json_set(units, '$[0]', json(?)) WHERE job_id = ?").bind(JSON.stringify(planned), job.id),
      doneRow(job.id, 0, entries[0]!),
    ]);
    expect(await new JobLifecycle(withCapturedQueue().env).unit(job.id, 0)).toBeNull();

    await h.drain();
    await expectEveryRecordOnce(job.id);
    const marks = await planEntries(job.id);
    expect(marks.map((e) => e.committed !== undefined)).toEqual([false, true, true, true, true, true]);
    expect((await env.DB.prepare("SELECT count(*) AS n FROM task_units WHERE job_id = ?").bind(job.id).first<{ n: number }>())!.n).toBe(1);
  });

  it("keeps no plan of a planning delivery that lost its fence: the units are those of the delivery that planned", async () => {
    const { job } = await newJob();
    const lifecycle = new JobLifecycle(withCapturedQueue().env);
    const units = (ids: string[]) => ids.map((id) => ({ target: { id, attributes: {} }, segment: { start: "2026-02-01", end: "2026-02-28" } }));
    // A later grant on the credential: the first delivery's fence is no longer the newest.
    await env.DB.prepare("UPDATE jobs SET lease_fence = 2 WHERE id = ?").bind(job.id).run();
    await expect(lifecycle.planned(job, units(["stale-0", "stale-1", "stale-2"]), 1, Date.now())).rejects.toMatchObject({ code: "LOCK_LEASE_LOST" });
    expect(await lifecycle.unit(job.id, 0)).toBeNull();
    expect(await lifecycle.planned(job, units(["kept-0", "kept-1"]), 2, Date.now())).toEqual({ next: 0, finished: false });
    expect(await lifecycle.unit(job.id, 0)).toMatchObject({ unitIndex: 0, targetId: "kept-0" });
    expect(await lifecycle.queuedUnitAfter(job.id, 1)).toBeNull();
    expect(await jobRow(job.id)).toMatchObject({ status: "RUNNING", total_task_count: 2 });
  });

  it("counts a redelivered unit once and does not fork the chain", async () => {
    const { job, plan } = await newJob();
    const h = harness();
    await executeMessage(h.deps, plan);
    const unit0 = h.queued.shift()!;
    await executeMessage(h.deps, unit0);
    const afterFirst = await jobRow(job.id);
    expect(h.queued).toHaveLength(1);
    await executeMessage(h.deps, unit0);
    expect(h.queued).toHaveLength(1);
    expect(await jobRow(job.id)).toEqual(afterFirst);
    await h.drain();
    const final = await jobRow(job.id);
    expect(final).toMatchObject({ status: "SUCCEEDED", completed_task_count: 6 });
    const truth = bankGroundTruth("user_good", { start: RANGE.dateRangeStart, end: RANGE.dateRangeEnd }).transactions;
    expect(final!.record_count).toBe(truth.length);
  });

  it("carries a job's units on inline in one delivery while the budget lasts", async () => {
    const { job, plan } = await newJob();
    const h = harness({ inlineBudgetMs: 60_000 });
    expect(await executeMessage(h.deps, plan)).toEqual({ kind: "ack" });
    expect(h.queued).toEqual([]);
    expect(h.logins()).toBe(1);
    const truth = bankGroundTruth("user_good", { start: RANGE.dateRangeStart, end: RANGE.dateRangeEnd }).transactions;
    expect(await jobRow(job.id)).toMatchObject({ status: "SUCCEEDED", completed_task_count: 6, record_count: truth.length });
  });

  it("stores the units one delivery collects as one R2 object, committed together, or one each when they may not wait", async () => {
    const truth = bankGroundTruth("user_good", { start: RANGE.dateRangeStart, end: RANGE.dateRangeEnd }).transactions;
    const key = (r: Record<string, unknown>) => String(r.identifier);
    for (const [commitEveryMs, objects] of [
      [60_000, 1],
      [0, 6],
    ] as const) {
      const { job, plan } = await newJob();
      const h = harness({ inlineBudgetMs: 60_000, commitEveryMs });
      expect(await executeMessage(h.deps, plan)).toEqual({ kind: "ack" });
      expect(await jobRow(job.id)).toMatchObject({ status: "SUCCEEDED", completed_task_count: 6, record_count: truth.length });
      expect((await env.RESULTS.list({ prefix: `results/${job.id}/` })).objects, `commitEveryMs ${commitEveryMs}`).toHaveLength(objects);
      expect((await committedRecords(job.id)).map(key).sort()).toEqual(truth.map(key).sort());
    }
  });

  it("commits the units collected before a unit fails inline, and resumes the chain from the failed one", async () => {
    const { job, plan } = await newJob();
    const truth = bankGroundTruth("user_good", { start: RANGE.dateRangeStart, end: RANGE.dateRangeEnd }).transactions;
    const h = harness({ inlineBudgetMs: 60_000, commitEveryMs: 60_000 });
    const scraperFor = h.deps.scraperFor;
    let failed = false;
    h.deps.scraperFor = (provider) => {
      const scraper = scraperFor(provider);
      return {
        openSession: (...args) => scraper.openSession(...args),
        ready: (...args) => scraper.ready(...args),
        targets: (...args) => scraper.targets(...args),
        closeSession: (...args) => scraper.closeSession(...args),
        collect: (sessionId, unit) => {
          if (unit.unitIndex !== 3 || failed) return scraper.collect(sessionId, unit);
          failed = true;
          return Promise.reject(new ProviderFailure("ENGINE_CRASHED", "the browser died on unit 3"));
        },
      };
    };
    expect(await executeMessage(h.deps, plan)).toEqual({ kind: "ack" });
    expect(h.queued).toEqual([{ type: "unit", jobId: job.id, workspaceId: job.workspaceId, unitIndex: 3 }]);
    expect(await jobRow(job.id)).toMatchObject({ status: "RUNNING", completed_task_count: 3 });
    expect((await env.RESULTS.list({ prefix: `results/${job.id}/` })).objects).toHaveLength(1);
    await h.drain();
    expect(await jobRow(job.id)).toMatchObject({ status: "SUCCEEDED", completed_task_count: 6, record_count: truth.length });
    const key = (r: Record<string, unknown>) => String(r.identifier);
    expect((await committedRecords(job.id)).map(key).sort()).toEqual(truth.map(key).sort());
    expect((await env.RESULTS.list({ prefix: `results/${job.id}/` })).objects).toHaveLength(2);
  });

  it("commits what it collected when the chain fails between two units, and resumes from the next unit", async () => {
    const { job, plan } = await newJob();
    const truth = bankGroundTruth("user_good", { start: RANGE.dateRangeStart, end: RANGE.dateRangeEnd }).transactions;
    const h = harness({ inlineBudgetMs: 60_000, commitEveryMs: 60_000 });
    // D1 fails once while the delivery looks for the unit after unit 0, which it has collected and not committed.
    const after = h.deps.jobs.queuedUnitAfter.bind(h.deps.jobs);
    h.deps.jobs.queuedUnitAfter = async (jobId, unitIndex) => {
      h.deps.jobs.queuedUnitAfter = after;
      throw new Error("D1_ERROR: Network connection lost.");
    };
    expect(await executeMessage(h.deps, plan)).toEqual({ kind: "ack" });
    expect(h.queued).toEqual([{ type: "unit", jobId: job.id, workspaceId: job.workspaceId, unitIndex: 1 }]);
    expect(await jobRow(job.id)).toMatchObject({ status: "RUNNING", completed_task_count: 1 });
    await h.drain();
    expect(await jobRow(job.id)).toMatchObject({ status: "SUCCEEDED", completed_task_count: 6, record_count: truth.length });
  });

  it("hands the chain on through the queue once the budget is spent", async () => {
    const { job, plan } = await newJob();
    const h = harness({ inlineBudgetMs: 0 });
    await executeMessage(h.deps, plan);
    expect(h.queued).toEqual([{ type: "unit", jobId: job.id, workspaceId: job.workspaceId, unitIndex: 0 }]);
    expect(await jobRow(job.id)).toMatchObject({ status: "RUNNING", completed_task_count: 0, total_task_count: 6 });
  });

  it("gives a unit that failed inline a message of its own to retry", async () => {
    const { job, plan } = await newJob(RANGE, "bank.transactions.cb.v1", { loginId: "user_good", password: "error_RATE_LIMITED" });
    const h = harness({ inlineBudgetMs: 60_000 });
    expect(await executeMessage(h.deps, plan)).toEqual({ kind: "ack" });
    expect(h.queued).toEqual([{ type: "unit", jobId: job.id, workspaceId: job.workspaceId, unitIndex: 0 }]);
    expect((await jobRow(job.id))!.status).toBe("RUNNING");
  });

  it("lines up jobs on a busy credential in arrival order, shows their places, and hands the login from each to the next", async () => {
    // One account each, so a job is one unit.
    const accountNumber = [accountsOf("user_good")[0]!.accountNumber];
    const { ws, credentialId, job: first, plan } = await newJob({ dateRangeStart: "2026-03-01", dateRangeEnd: "2026-03-10", accountNumber });
    const queue = withCapturedQueue();
    const later = [];
    for (const dateRangeEnd of ["2026-03-11", "2026-03-12"]) {
      later.push(await createJob(queue.env, ws.workspaceId, { providerCode: "sandbox.bank", schema: "bank.transactions.cb.v1", params: { dateRangeStart: "2026-03-01", dateRangeEnd, accountNumber } }));
    }
    const h = harness();
    const order: string[] = [];
    const jobs = h.deps.jobs;
    const succeeded = jobs.succeeded.bind(jobs);
    jobs.succeeded = async (job, now) => (order.push(job.id), succeeded(job, now));
    // The first job plans and parks its lease, its units queued; the others ask meanwhile and wait, each shown its place.
    expect(await executeMessage(h.deps, plan)).toEqual({ kind: "ack" });
    for (const message of queue.sent) expect((await executeMessage(h.deps, message)).kind).toBe("retry");
    const places = await env.DB.prepare("SELECT id, queue_position AS p FROM jobs WHERE workspace_id = ? AND status = 'PENDING' ORDER BY created_at").bind(ws.workspaceId).all();
    expect(places.results).toEqual(later.map((j, i) => ({ id: j.id, p: i + 1 })));
    const view = await callJson<Record<string, any>>(`/api/v1/data-jobs/${later[1]!.id}`, { key: ws.apiKey });
    expect(view.body).toMatchObject({ kind: "InProgress", phase: "PENDING", queuePosition: 2 });
    expect(progressText(view.body as Parameters<typeof progressText>[0])).toBe("차례 대기 · 앞에 2건");

    // Each job's end wakes the next (its plan enqueued at once), which runs on the session the first one opened.
    await h.drain();
    expect(order).toEqual([first.id, ...later.map((j) => j.id)]);
    expect(h.logins()).toBe(1);
    for (const job of [first, ...later]) expect((await jobRow(job.id))!.status).toBe("SUCCEEDED");
    expect(await credentialLock(env, credentialId).holds(later[1]!.id)).toBe(false);
  });

  it("fails the same collection asked again while it runs with LOCK_CONTENTION and retryAfterSeconds 120", async () => {
    const { ws, job, plan } = await newJob();
    const queue = withCapturedQueue();
    const twin = await createJob(queue.env, ws.workspaceId, { providerCode: "sandbox.bank", schema: "bank.transactions.cb.v1", params: { dateRangeEnd: RANGE.dateRangeEnd, dateRangeStart: RANGE.dateRangeStart } });
    const h = harness();
    expect(await executeMessage(h.deps, plan)).toEqual({ kind: "ack" });
    expect(await executeMessage(h.deps, queue.sent[0]!)).toEqual({ kind: "ack" });
    const row = await jobRow(twin.id);
    expect(row!.status).toBe("FAILED");
    expect(JSON.parse(row!.error)).toMatchObject({ code: "LOCK_CONTENTION", category: "TRANSIENT", retryable: true, retryAfterSeconds: 120 });
    expect((await jobRow(job.id))!.status).toBe("RUNNING");
  });

  it("gives LOCK_LEASE_LOST when the lease runs out under a running unit and commits nothing", async () => {
    const { job, plan } = await newJob({ dateRangeStart: "2026-03-01", dateRangeEnd: "2026-03-31" });
    const h = harness({ leaseMs: 1 });
    await executeMessage(harness().deps, plan);
    const outcome = await executeMessage(h.deps, { type: "unit", jobId: job.id, workspaceId: job.workspaceId, unitIndex: 0 });
    expect(outcome.kind).toBe("retry");
    expect((await env.RESULTS.list({ prefix: unitResultsKey(job.id, 0, "") })).objects).toHaveLength(0);
    expect((await jobRow(job.id))!.completed_task_count).toBe(0);
    const exhausted = harness({ leaseMs: 1, retry: { baseSeconds: 0, maxSeconds: 0, maxAttempts: 1 } });
    await executeMessage(exhausted.deps, { type: "unit", jobId: job.id, workspaceId: job.workspaceId, unitIndex: 0 });
    expect(JSON.parse((await jobRow(job.id))!.error)).toMatchObject({ code: "LOCK_LEASE_LOST", retryable: true });
  });

  it("fails with CREDENTIAL_NOT_FOUND when the credential is deleted before planning", async () => {
    const { job, plan, credentialId } = await newJob();
    await env.DB.prepare("UPDATE credentials SET status = 'DELETED' WHERE id = ?").bind(credentialId).run();
    await executeMessage(harness().deps, plan);
    expect(JSON.parse((await jobRow(job.id))!.error)).toMatchObject({ code: "CREDENTIAL_NOT_FOUND", category: "CREDENTIAL_MISSING", retryable: false });
  });

  it("resumes transient engine failures with backoff, then fails retryable once attempts run out", async () => {
    const { ContainerScraper } = await import("../../../../worker/domain/scraper/container-client");
    const dead = new ContainerScraper("http://127.0.0.1:9", env.SCRAPER_SHARED_SECRET);
    const { job, plan } = await newJob();
    const h = harness({ scraperFor: () => dead, retry: { baseSeconds: 4, maxSeconds: 8, maxAttempts: 2 } });
    const first = await executeMessage(h.deps, plan);
    expect(first.kind).toBe("retry");
    expect((first as { delaySeconds: number }).delaySeconds).toBeGreaterThanOrEqual(2);
    expect((first as { delaySeconds: number }).delaySeconds).toBeLessThanOrEqual(4);
    expect((await executeMessage(h.deps, plan)).kind).toBe("retry");
    expect(await executeMessage(h.deps, plan)).toEqual({ kind: "ack" });
    expect(JSON.parse((await jobRow(job.id))!.error)).toMatchObject({ code: "ENGINE_CRASHED", category: "TRANSIENT", retryable: true });
  });

  it("waits for a full engine without spending the job's attempts, then collects on the first login it gets", async () => {
    const { job, plan } = await newJob();
    const engine = engineFullFor(3);
    const h = harness({ scraperFor: () => engine, retry: { baseSeconds: 0, maxSeconds: 0, maxAttempts: 1 } });
    for (let i = 0; i < 3; i++) {
      const outcome = await executeMessage(h.deps, plan);
      expect(outcome.kind).toBe("retry");
      expect((outcome as { delaySeconds: number }).delaySeconds).toBeGreaterThanOrEqual(10);
    }
    h.queued.push(plan);
    await h.drain();
    expect(await env.DB.prepare("SELECT status, attempt FROM jobs WHERE id = ?").bind(job.id).first()).toEqual({ status: "SUCCEEDED", attempt: 0 });
  });

  it("fails with ENGINE_CONCURRENCY_LIMIT when the engine stays full until the job's deadline", async () => {
    const { job, plan } = await newJob();
    await executeMessage(harness({ scraperFor: () => engineFullFor(Infinity), now: () => job.deadlineAt - 5_000 }).deps, plan);
    expect(JSON.parse((await jobRow(job.id))!.error)).toMatchObject({ code: "ENGINE_CONCURRENCY_LIMIT", category: "TRANSIENT", retryable: true });
  });

  it("fails BUSINESS_NUMBER_MISMATCH when the institution login belongs to another business than the workspace's", async () => {
    const run = async (businessNumber: string) => {
      const ws = await createWorkspace({ businessNumber });
      await addCredential(ws.workspaceId, "sandbox.taxportal", { authMethod: "PROVIDER_LOGIN", loginId: "tax_user2", password: "pass_good", secondFactor: "7505152" });
      const queue = withCapturedQueue();
      const job = await createJob(queue.env, ws.workspaceId, { providerCode: "sandbox.taxportal", schema: "taxportal.tax-invoices.sales.v1", params: { dateRangeStart: "2026-01-01", dateRangeEnd: "2026-01-31" } });
      const h = harness();
      h.queued.push(queue.sent[0]!);
      await h.drain();
      return jobRow(job.id);
    };
    expect(JSON.parse((await run("1208800767"))!.error)).toMatchObject({ code: "BUSINESS_NUMBER_MISMATCH", category: "CREDENTIAL", retryable: false });
    expect(await run("2208162517")).toMatchObject({ status: "SUCCEEDED", error: null });
  });

  it("fails a job past its wait budget with JOB_TIMEOUT", async () => {
    const { job, plan } = await newJob();
    await executeMessage(harness({ now: () => job.deadlineAt + 1 }).deps, plan);
    expect(JSON.parse((await jobRow(job.id))!.error)).toMatchObject({ code: "JOB_TIMEOUT" });
  });

  it("succeeds with zero records when no account matches the currency", async () => {
    const { job, plan } = await newJob({ ...RANGE, currencyCode: "JPY" });
    const h = harness();
    h.queued.push(plan);
    await h.drain();
    expect(await jobRow(job.id)).toMatchObject({ status: "SUCCEEDED", record_count: 0, total_task_count: 0 });
  });

  it("maps a login failure on the site to LOGIN_FAILED without retrying", async () => {
    const { job, plan } = await newJob(RANGE, "bank.transactions.cb.v1", { loginId: "user_good", password: "wrong_pass" });
    const h = harness();
    h.queued.push(plan);
    const outcomes = await h.drain();
    expect(outcomes).toEqual([{ kind: "ack" }]);
    expect(JSON.parse((await jobRow(job.id))!.error)).toMatchObject({ code: "LOGIN_FAILED", category: "CREDENTIAL", retryable: false });
  });

  it("keeps the lease through a unit that outlasts the lease term, renewing it while the unit runs", async () => {
    const { job, plan, credentialId } = await newJob();
    // Renewals every 2.7 s, with two more before the term ends: a 2-core machine running the other lanes
    // stalled this worker past a 3 s term once (fresh-clone run c28) and past a 5 s term once (stop 50's second
    // fresh clone, a renewal found the lease lapsed), so the term leaves room for that.
    const leaseMs = 8000;
    const base = harness().deps;
    const lock = recordingLock(base.lockFor(credentialId), credentialId);
    const real = base.scraperFor(findProvider("sandbox.bank")!);
    let slowUnits = 1;
    // The first unit takes half as long again as the lease term: only renewals while it runs keep the lease.
    const slowFirstUnit: ScraperPort = {
      openSession: (...a) => real.openSession(...a),
      ready: (...a) => real.ready(...a),
      targets: (...a) => real.targets(...a),
      closeSession: (...a) => real.closeSession(...a),
      collect: async (sessionId, unit) => {
        if (slowUnits-- > 0) await new Promise((r) => setTimeout(r, 1.5 * leaseMs));
        return real.collect(sessionId, unit);
      },
    };
    const h = harness({ leaseMs, inlineBudgetMs: 60_000, lockFor: () => lock, scraperFor: () => slowFirstUnit });
    expect(await executeMessage(h.deps, plan)).toEqual({ kind: "ack" });
    // A later unit that failed for a passing reason on a loaded machine (run c35) was handed on: run it as the queue would.
    await h.settleAll();
    expect(await jobRow(job.id)).toMatchObject({ status: "SUCCEEDED", completed_task_count: 6, error: null });
    // The object's own clock and state, not the test's wall time: every renewal found the lease held, and one
    // renewed it after the term its grant gave had run out, which only earlier renewals make possible.
    const term = lock.grants[0]!.leaseUntil;
    expect(lock.renewals.length).toBeGreaterThan(2);
    expect(lock.renewals.every((r) => r.held)).toBe(true);
    expect(lock.renewals.some((r) => r.leaseUntil - leaseMs > term)).toBe(true);
  });

  it("logs in once when the plan message is delivered twice at the same time", async () => {
    const { job, plan } = await newJob();
    const h = harness();
    const outcomes = await Promise.all([executeMessage(h.deps, plan), executeMessage(h.deps, plan)]);
    // One delivery plans; the other finds the job's lease taken by a delivery of the same job and waits for it.
    expect(outcomes).toContainEqual({ kind: "ack" });
    expect(outcomes.find((o) => o.kind === "retry")).toMatchObject({ kind: "retry" });
    expect(await executeMessage(h.deps, plan)).toEqual({ kind: "ack" });
    await h.drain();
    expect(h.logins()).toBe(1);
    expect(await jobRow(job.id)).toMatchObject({ status: "SUCCEEDED", total_task_count: 6, completed_task_count: 6 });
  });

  it("closes the first job's scraper session when another job takes over its lapsed lease", async () => {
    const first = await newJob({ dateRangeStart: "2026-03-01", dateRangeEnd: "2026-03-31" });
    const leaseMs = 3000;
    const h = harness({ leaseMs });
    await executeMessage(h.deps, first.plan);
    const lock = credentialLock(env, first.credentialId);
    const session = await runInDurableObject(lock, (_o: CredentialLock, state) => state.storage.sql.exec<{ s: string }>("SELECT scraper_session_id AS s FROM lease").one().s);
    expect(await sessionState(session)).toBe("alive");
    await new Promise((r) => setTimeout(r, leaseMs + 50));

    const queue = withCapturedQueue();
    const second = await createJob(queue.env, first.ws.workspaceId, { providerCode: "sandbox.bank", schema: "bank.accounts.cb.v1" });
    expect(second.credentialId).toBe(first.credentialId);
    // The second job's own lease is long: only the first job's lapse is under test.
    const takeover = harness({ inlineBudgetMs: 60_000 });
    const closed: string[] = [];
    const scraperFor = takeover.deps.scraperFor;
    takeover.deps.scraperFor = (provider) => {
      const scraper = scraperFor(provider);
      return { ...scraper, closeSession: (id) => (closed.push(id), scraper.closeSession(id)) };
    };
    expect(await executeMessage(takeover.deps, queue.sent[0]!)).toEqual({ kind: "ack" });
    expect((await jobRow(second.id))!.status).toBe("SUCCEEDED");
    expect(closed).toContain(session);
    expect(await vi.waitUntil(async () => (await sessionState(session)) === "gone", { timeout: 40_000, interval: 200 })).toBe(true);

    // The first job carries on with a login of its own.
    await h.settleAll();
    expect(await jobRow(first.job.id)).toMatchObject({ status: "SUCCEEDED", completed_task_count: 3 });
  });

  it("refuses the commit of a unit whose lease was granted again since, and leaves the unit waiting", async () => {
    const { job, plan, ws } = await newJob({ dateRangeStart: "2026-03-01", dateRangeEnd: "2026-03-31" });
    const h = harness();
    await executeMessage(h.deps, plan);
    const fence = (await env.DB.prepare("SELECT lease_fence AS f FROM jobs WHERE id = ?").bind(job.id).first<{ f: number }>())!.f;
    const other = await createJob(withCapturedQueue().env, ws.workspaceId, { providerCode: "sandbox.bank", schema: "bank.accounts.cb.v1" });
    await h.deps.jobs.leaseGranted(other.id, fence + 1);
    const running = (await h.deps.jobs.job(job.id))!;
    const stored = { unitIndex: 0, recordCount: 5, resultId: null, resultUnit: null, jsonOffset: 0, jsonEnd: null, csvOffset: 0, csvEnd: null };
    await expect(h.deps.jobs.unitsCommitted(running, [stored], fence, Date.now())).rejects.toMatchObject({ code: "LOCK_LEASE_LOST" });
    expect(await h.deps.jobs.unit(job.id, 0)).toMatchObject({ unitIndex: 0 });
    expect((await jobRow(job.id))!.completed_task_count).toBe(0);
  });
});
