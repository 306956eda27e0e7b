import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { bankGroundTruth } from "../../../../sandbox/sandbox-bank/ground-truth";
import type { PipelineMessage } from "../../../../worker/domain/jobs/messages";
import { pipelineDeps } from "../../../../worker/domain/pipeline/deps";
import { executeMessage } from "../../../../worker/domain/pipeline/executor";
import { addCredential, callJson, createWorkspace, TX_JOB, withCapturedQueue } from "../../../support/workers/helpers";

type Json = Record<string, any>;

const create = (key: string, body: unknown, idempotencyKey?: string, bindings?: Env) =>
  callJson<Json>("/api/v1/data-jobs", { method: "POST", key, json: body, headers: idempotencyKey === undefined ? {} : { "Idempotency-Key": idempotencyKey }, env: bindings });

/** A D1 binding that counts its round trips: a batch is one, as is each statement's run, all, first or raw. */
function roundTripCounting(): { db: D1Database; roundTrips: () => number } {
  let trips = 0;
  const unwrapped = new WeakMap<object, D1PreparedStatement>();
  const counted = (statement: D1PreparedStatement): D1PreparedStatement => {
    const proxy = new Proxy(statement, {
      get(target, prop) {
        if (prop === "bind") return (...values: unknown[]) => counted(target.bind(...values));
        const value = Reflect.get(target, prop, target);
        if (typeof value !== "function") return value;
        if (prop !== "run" && prop !== "all" && prop !== "first" && prop !== "raw") return value.bind(target);
        return (...args: unknown[]) => (trips++, value.apply(target, args));
      },
    });
    unwrapped.set(proxy, statement);
    return proxy;
  };
  const db = new Proxy(env.DB, {
    get(target, prop) {
      if (prop === "prepare") return (sql: string) => counted(target.prepare(sql));
      if (prop === "batch") return (statements: D1PreparedStatement[]) => (trips++, target.batch(statements.map((s) => unwrapped.get(s) ?? s)));
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { db, roundTrips: () => trips };
}

async function jobCount(workspaceId: string): Promise<number> {
  return (await env.DB.prepare("SELECT count(*) AS n FROM jobs WHERE workspace_id = ?").bind(workspaceId).first<{ n: number }>())!.n;
}

describe("Idempotency-Key", () => {
  it("returns the same job for the same key and body, 201 again", async () => {
    const ws = await createWorkspace();
    const first = await create(ws.apiKey, TX_JOB, "order-1");
    const reordered = { params: { dateRangeEnd: TX_JOB.params.dateRangeEnd, dateRangeStart: TX_JOB.params.dateRangeStart }, schema: TX_JOB.schema, providerCode: TX_JOB.providerCode };
    const second = await create(ws.apiKey, reordered, "order-1");
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.body.id).toBe(first.body.id);
    expect(await jobCount(ws.workspaceId)).toBe(1);
  });

  it("answers 409 IDEMPOTENCY_KEY_CONFLICT for the same key with a different body", async () => {
    const ws = await createWorkspace();
    await create(ws.apiKey, TX_JOB, "order-2");
    const res = await create(ws.apiKey, { ...TX_JOB, params: { dateRangeStart: "2026-01-01", dateRangeEnd: "2026-01-30" } }, "order-2");
    expect(res.status).toBe(409);
    expect(res.body.code).toBe("IDEMPOTENCY_KEY_CONFLICT");
    expect(await jobCount(ws.workspaceId)).toBe(1);
  });

  it("scopes keys per workspace", async () => {
    const a = await createWorkspace();
    const b = await createWorkspace();
    const ja = await create(a.apiKey, TX_JOB, "shared");
    const jb = await create(b.apiKey, TX_JOB, "shared");
    expect(jb.status).toBe(201);
    expect(jb.body.id).not.toBe(ja.body.id);
  });

  it.each([["empty", ""], ["129 characters", "k".repeat(129)]])("rejects a key that is %s", async (_name, key) => {
    const ws = await createWorkspace();
    const res = await create(ws.apiKey, TX_JOB, key);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("INVALID_PARAM_FORMAT");
    expect(res.body.fieldErrors[0].field).toBe("header.Idempotency-Key");
    expect(await jobCount(ws.workspaceId)).toBe(0);
  });

  it("accepts a key of 128 characters", async () => {
    const ws = await createWorkspace();
    expect((await create(ws.apiKey, TX_JOB, "k".repeat(128))).status).toBe(201);
  });

  it("makes a first create with a key one D1 round trip once the create context is kept, and its replay still answers the job", async () => {
    const ws = await createWorkspace();
    await addCredential(ws.workspaceId);
    // A plan without a monthly step cap, whose create reads no steps used (jobs/step-cap.ts).
    await env.DB.prepare("UPDATE workspaces SET plan = 'PRO' WHERE id = ?").bind(ws.workspaceId).run();
    const body = { providerCode: "sandbox.bank", schema: "bank.accounts.cb.v1" };
    const queue = withCapturedQueue();
    // The workspace's first create reads the create context; later ones decide from the kept one.
    expect((await create(ws.apiKey, body, "warm-up", queue.env)).status).toBe(201);
    const counting = roundTripCounting();
    const counted = { ...queue.env, DB: counting.db } as Env;
    const first = await create(ws.apiKey, body, "one-trip", counted);
    expect([first.status, first.body.phase, counting.roundTrips()]).toEqual([201, "PENDING", 1]);
    const replayed = await create(ws.apiKey, body, "one-trip", counted);
    expect([replayed.status, replayed.body.id]).toEqual([201, first.body.id]);
    // Its insert now refused by the monthly cap, the replay still answers the job the key names, and re-sends its plan.
    await env.DB.prepare("UPDATE workspaces SET monthly_job_cap = 2 WHERE id = ?").bind(ws.workspaceId).run();
    const capped = await create(ws.apiKey, body, "one-trip", counted);
    expect([capped.status, capped.body.id]).toEqual([201, first.body.id]);
    await vi.waitFor(() => expect(queue.sent.filter((m) => "jobId" in m && m.jobId === first.body.id)).toHaveLength(3));
    expect((await create(ws.apiKey, body, "another", counted)).body.code).toBe("FREE_PLAN_JOB_CAP_REACHED");
    expect(await jobCount(ws.workspaceId)).toBe(2);
  });

  it("answers a create before its plan message is sent, and sends it after the answer", async () => {
    const ws = await createWorkspace();
    await addCredential(ws.workspaceId);
    const body = { providerCode: "sandbox.bank", schema: "bank.accounts.cb.v1" };
    const sent: PipelineMessage[] = [];
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    // A queue that takes its time: the answer must not wait for it (the sweep re-sends a plan a send lost).
    const TASKS = { sendBatch: async (messages: MessageSendRequest<PipelineMessage>[]) => (await held, sent.push(...messages.map((m) => m.body))) } as unknown as Queue<PipelineMessage>;
    const answered = await Promise.race([create(ws.apiKey, body, "answered-first", { ...env, TASKS } as Env), new Promise((r) => setTimeout(() => r("waited"), 5_000))]);
    expect(answered).toMatchObject({ status: 201, body: { phase: "PENDING" } });
    expect(sent).toEqual([]);
    release();
    await vi.waitFor(() => expect(sent.map((m) => "jobId" in m && m.jobId)).toEqual([(answered as { body: Json }).body.id]));
  });

  it("sends the plans of an isolate's concurrent creates as one batch, each job's plan once", async () => {
    const ws = await createWorkspace();
    await addCredential(ws.workspaceId);
    await env.DB.prepare("UPDATE workspaces SET plan = 'PRO' WHERE id = ?").bind(ws.workspaceId).run();
    const queue = withCapturedQueue();
    const batches: number[] = [];
    const TASKS = { sendBatch: (messages: MessageSendRequest<PipelineMessage>[]) => (batches.push(messages.length), queue.env.TASKS.sendBatch(messages)) } as unknown as Queue<PipelineMessage>;
    const body = { providerCode: "sandbox.bank", schema: "bank.accounts.cb.v1" };
    const created = await Promise.all(Array.from({ length: 10 }, (_, i) => create(ws.apiKey, body, `batched-${i}`, { ...queue.env, TASKS } as Env)));
    expect(created.map((r) => r.status)).toEqual(Array(10).fill(201));
    await vi.waitFor(() => expect(queue.sent.map((m) => "jobId" in m && m.jobId).sort()).toEqual(created.map((r) => r.body.id).sort()));
    // Ten creates answered together leave a batch or two, never a send each.
    expect(batches.length).toBeLessThanOrEqual(3);
  });

  it("creates exactly one job from concurrent first requests with one key", async () => {
    const ws = await createWorkspace();
    const results = await Promise.all(Array.from({ length: 20 }, () => create(ws.apiKey, TX_JOB, "race")));
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(201));
    expect(new Set(results.map((r) => r.body.id)).size).toBe(1);
    expect(await jobCount(ws.workspaceId)).toBe(1);
  });

  it("keeps keys for at least 24 hours, then lets a new request take the key over", async () => {
    const ws = await createWorkspace();
    const first = await create(ws.apiKey, TX_JOB, "old");
    const row = await env.DB.prepare("SELECT created_at, expires_at FROM idempotency_keys WHERE workspace_id = ?").bind(ws.workspaceId).first<{ created_at: number; expires_at: number }>();
    expect(row!.expires_at - row!.created_at).toBeGreaterThanOrEqual(24 * 3600_000);
    await env.DB.prepare("UPDATE idempotency_keys SET expires_at = ? WHERE workspace_id = ?").bind(Date.now() - 1, ws.workspaceId).run();
    const again = await create(ws.apiKey, { ...TX_JOB, schema: "bank.accounts.cb.v1", params: {} }, "old");
    expect(again.status).toBe(201);
    expect(again.body.id).not.toBe(first.body.id);
  });

  it("answers 201 with the PENDING job when its plan cannot be enqueued, and a retry with the key sends the plan that runs it", async () => {
    const ws = await createWorkspace();
    await addCredential(ws.workspaceId);
    const queue = withCapturedQueue({ failingSends: 1 });
    const body = { providerCode: "sandbox.bank", schema: "bank.accounts.cb.v1" };

    const errors = vi.spyOn(console, "error");
    const first = await create(ws.apiKey, body, "lost-plan", queue.env);
    try {
      expect(first.status).toBe(201);
      expect(first.body).toMatchObject({ kind: "InProgress", phase: "PENDING" });
      // The send fails after the answer, and says which job it lost.
      await vi.waitFor(() => expect(errors.mock.calls.some(([line]) => String(line).includes("plan-send-failed") && String(line).includes(first.body.id))).toBe(true));
      expect(queue.sent).toEqual([]);
    } finally {
      errors.mockRestore();
    }

    const retried = await create(ws.apiKey, body, "lost-plan", queue.env);
    expect(retried.status).toBe(201);
    expect(retried.body.id).toBe(first.body.id);
    await vi.waitFor(() => expect(queue.sent).toEqual([{ type: "plan", jobId: first.body.id, workspaceId: ws.workspaceId }]));
    expect(await jobCount(ws.workspaceId)).toBe(1);

    // The whole job in this one delivery, however slow the login is under load (the default budget is 30 s).
    expect(await executeMessage({ ...pipelineDeps(queue.env), inlineBudgetMs: 600_000 }, queue.sent[0]!)).toEqual({ kind: "ack" });
    const done = await create(ws.apiKey, body, "lost-plan", queue.env);
    expect(done.body).toMatchObject({ id: first.body.id, kind: "Succeeded", recordCount: bankGroundTruth("user_good").accounts.length });
    // A replay of a job that left PENDING sends nothing more.
    expect(queue.sent).toHaveLength(1);
  });
});
