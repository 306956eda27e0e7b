// start-order: 4 (why: vitest.config.ts)
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { bankGroundTruth } from "../../../../sandbox/sandbox-bank/ground-truth";
import type { PipelineMessage } from "../../../../worker/domain/jobs/messages";
import { executeMessage } from "../../../../worker/domain/pipeline/executor";
import type { Outcome } from "../../../../worker/domain/pipeline/ports";
import { unitResultsKey } from "../../../../worker/domain/results/keys";
import { callJson, type TestWorkspace } from "../../../support/workers/helpers";
import { harness, jobRow, newJob, RANGE } from "../../../support/workers/pipeline-harness";

type Json = Record<string, any>;

const TRUTH = bankGroundTruth("user_good", { start: RANGE.dateRangeStart, end: RANGE.dateRangeEnd }).transactions;
const byIdentifier = (a: Json, b: Json) => (a.identifier < b.identifier ? -1 : a.identifier > b.identifier ? 1 : 0);

/** The job's records as GET /results serves them, sorted for comparison with the ground truth. */
async function served(ws: TestWorkspace, jobId: string): Promise<{ totalCount: number; data: Json[] }> {
  const { body } = await callJson<Json>(`/api/v1/data-jobs/${jobId}/results`, { key: ws.apiKey });
  return { totalCount: body.totalCount, data: [...body.data].sort(byIdentifier) };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The real results bucket with `put` replaced for the objects `fault` picks:
 * everything else (gets, heads, other puts) goes to the bucket untouched.
 */
function bucketWith(put: (key: string, ...rest: Parameters<R2Bucket["put"]> extends [string, ...infer R] ? R : never) => ReturnType<R2Bucket["put"]>): R2Bucket {
  return new Proxy(env.RESULTS, {
    get: (target, prop) => (prop === "put" ? put : (Reflect.get(target, prop) as Function).bind(target)),
  });
}

describe("pipeline faults on real components: every job ends with exactly the ground truth, or Failed with its code", () => {
  it("retries a unit whose R2 write fails once, and stores its records once", async () => {
    const { ws, job, plan } = await newJob();
    const failing = unitResultsKey(job.id, 2, "");
    let failures = 0;
    const results = bucketWith((key, ...rest) => {
      if (key.startsWith(failing) && failures++ === 0) return Promise.reject(new Error("R2 put failed: We encountered an internal error. Please try again. (10001)"));
      return env.RESULTS.put(key, ...rest);
    });
    const h = harness({ results });
    h.queued.push(plan);
    await h.drain();
    expect(failures).toBeGreaterThan(1);
    expect(await jobRow(job.id)).toMatchObject({ status: "SUCCEEDED", completed_task_count: 6, record_count: TRUTH.length, error: null });
    expect(await served(ws, job.id)).toEqual({ totalCount: TRUTH.length, data: [...TRUTH].sort(byIdentifier) });
  });

  it("fails the job INTERNAL_ERROR when R2 keeps failing, serving only the units it committed", async () => {
    const { ws, job, plan } = await newJob();
    const results = bucketWith((key, ...rest) =>
      key.startsWith(unitResultsKey(job.id, 2, "")) ? Promise.reject(new Error("R2 put failed (10001)")) : env.RESULTS.put(key, ...rest),
    );
    const h = harness({ results });
    h.queued.push(plan);
    await h.drain();
    const row = await jobRow(job.id);
    expect(row).toMatchObject({ status: "FAILED", completed_task_count: 2 });
    expect(JSON.parse(row!.error)).toMatchObject({ code: "INTERNAL_ERROR", category: "TRANSIENT", retryable: true });
    const partial = await served(ws, job.id);
    expect(partial.totalCount).toBe(row!.record_count);
    expect(partial.data).toHaveLength(row!.record_count);
    expect(new Set(partial.data.map((r) => r.identifier)).size).toBe(partial.data.length);
    for (const record of partial.data) expect(TRUTH).toContainEqual(record);
  });

  it("redoes a unit whose delivery died between its R2 write and its D1 commit, and the dead delivery commits nothing when it wakes", async () => {
    const { ws, job, plan } = await newJob();
    // Renewals a second apart while the delivery works: a loaded machine does not make it lapse before its write.
    const leaseMs = 3000;
    const crashed = unitResultsKey(job.id, 3, "");
    let written!: () => void;
    const wroteBeforeCrash = new Promise<void>((r) => (written = r));
    let wake!: () => void;
    const asleep = new Promise<void>((r) => (wake = r));
    let crashes = 0;
    // The write lands, then the delivery never gets past it: as if its isolate died right there.
    const results = bucketWith(async (key, ...rest) => {
      const object = await env.RESULTS.put(key, ...rest);
      if (key.startsWith(crashed) && crashes++ === 0) {
        written();
        await asleep;
      }
      return object;
    });
    const h = harness({ results, leaseMs });
    await h.settle(plan);
    for (let unit = 0; unit < 3; unit++) await h.settle(h.queued.shift()!);
    const unit3 = h.queued.shift()!;
    expect(unit3).toMatchObject({ type: "unit", unitIndex: 3 });

    const dead = executeMessage(h.deps, unit3);
    await wroteBeforeCrash;
    expect((await env.RESULTS.list({ prefix: crashed })).objects).toHaveLength(1);
    expect(await h.deps.jobs.unit(job.id, 3)).toMatchObject({ unitIndex: 3 });

    // The queue redelivers the unacknowledged message: it waits out the dead delivery's lease, then takes over.
    let redelivery = await executeMessage(h.deps, unit3);
    expect(redelivery.kind).toBe("retry");
    while (redelivery.kind === "retry") {
      await sleep(redelivery.delaySeconds * 1000);
      redelivery = await executeMessage(h.deps, unit3);
    }
    await h.settleAll();
    const finished = await jobRow(job.id);
    expect(finished).toMatchObject({ status: "SUCCEEDED", completed_task_count: 6, record_count: TRUTH.length });

    wake();
    expect(await dead).toEqual({ kind: "ack" });
    expect(h.queued).toEqual([]);
    expect(await jobRow(job.id)).toEqual(finished);
    expect(await served(ws, job.id)).toEqual({ totalCount: TRUTH.length, data: [...TRUTH].sort(byIdentifier) });
  });

  it("keeps the committed records when a delivery that lost its lease writes after another delivery committed the unit", async () => {
    const { ws, job, plan } = await newJob();
    const stale = unitResultsKey(job.id, 3, "");
    let paused!: () => void;
    const pausedBeforeWrite = new Promise<void>((r) => (paused = r));
    let wake!: () => void;
    const asleep = new Promise<void>((r) => (wake = r));
    let first = true;
    // The first delivery of unit 3 stalls before its write and, when it wakes, writes what the institution shows then:
    // here bytes that are no records at all, so any of them reaching the results shows.
    const results = bucketWith(async (key, ...rest) => {
      if (!key.startsWith(stale) || !first) return env.RESULTS.put(key, ...rest);
      first = false;
      paused();
      await asleep;
      return (await env.RESULTS.put(key, "not a record\n"))!;
    });
    const h = harness({ results, leaseMs: 3000 });
    await h.settle(plan);
    for (let unit = 0; unit < 3; unit++) await h.settle(h.queued.shift()!);
    const unit3 = h.queued.shift()!;
    const staleDelivery = executeMessage(h.deps, unit3);
    await pausedBeforeWrite;

    let redelivery = await executeMessage(h.deps, unit3);
    while (redelivery.kind === "retry") {
      await sleep(redelivery.delaySeconds * 1000);
      redelivery = await executeMessage(h.deps, unit3);
    }
    await h.settleAll();
    expect(await jobRow(job.id)).toMatchObject({ status: "SUCCEEDED", record_count: TRUTH.length });

    wake();
    expect(await staleDelivery).toEqual({ kind: "ack" });
    expect(await served(ws, job.id)).toEqual({ totalCount: TRUTH.length, data: [...TRUTH].sort(byIdentifier) });
  });

  it("delivers every message twice at once and still collects each unit once", async () => {
    const { ws, job, plan } = await newJob();
    const h = harness({ leaseMs: 5_000 });
    const deliveries = new Map<string, number>();
    const queue: { message: PipelineMessage; copies: number }[] = [{ message: plan, copies: 2 }];
    while (queue.length) {
      const { message, copies } = queue.shift()!;
      const name = message.type === "unit" ? `unit ${message.unitIndex}` : message.type;
      deliveries.set(name, (deliveries.get(name) ?? 0) + copies);
      const outcomes: Outcome[] = await Promise.all(Array.from({ length: copies }, () => executeMessage(h.deps, message)));
      // A copy turned away while the other worked comes back once that one is done, as the queue's retry would.
      for (const outcome of outcomes) if (outcome.kind === "retry") queue.push({ message, copies: 1 });
      queue.push(...h.queued.splice(0).map((next) => ({ message: next, copies: 2 })));
    }
    expect([...deliveries.keys()].sort()).toEqual(["plan", "unit 0", "unit 1", "unit 2", "unit 3", "unit 4", "unit 5"]);
    for (const count of deliveries.values()) expect(count).toBeGreaterThanOrEqual(2);
    expect(await jobRow(job.id)).toMatchObject({ status: "SUCCEEDED", completed_task_count: 6, record_count: TRUTH.length });
    expect(await served(ws, job.id)).toEqual({ totalCount: TRUTH.length, data: [...TRUTH].sort(byIdentifier) });
  });
});
