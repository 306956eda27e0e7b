import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { bankGroundTruth } from "../../../../sandbox/sandbox-bank/ground-truth";
import { createJob } from "../../../../worker/domain/jobs/create";
import { pipelineDeps } from "../../../../worker/domain/pipeline/deps";
import { executeMessage } from "../../../../worker/domain/pipeline/executor";
import { PENDING_ORPHAN_MS, PLAN_RESEND_MS, STALL_MS, sweep } from "../../../../worker/domain/pipeline/sweep";
import { credentialLock } from "../../../../worker/domain/pipeline/credential-lock";
import { addCredential, createWorkspace, withCapturedQueue } from "../../../support/workers/helpers";

async function pendingJob() {
  const ws = await createWorkspace();
  const credentialId = await addCredential(ws.workspaceId);
  const row = await createJob(withCapturedQueue().env, ws.workspaceId, { providerCode: "sandbox.bank", schema: "bank.accounts.cb.v1" });
  return { row, credentialId };
}

/** A job whose plan message was lost: the queue refused the send at create. */
async function jobWithLostPlan() {
  const ws = await createWorkspace();
  await addCredential(ws.workspaceId);
  const queue = withCapturedQueue({ failingSends: 1 });
  const row = await createJob(queue.env, ws.workspaceId, { providerCode: "sandbox.bank", schema: "bank.accounts.cb.v1" });
  expect(row.status).toBe("PENDING");
  expect(queue.sent).toEqual([]);
  return { row, queue };
}

const backdate = (id: string, createdAt: number) => env.DB.prepare("UPDATE jobs SET created_at = ? WHERE id = ?").bind(createdAt, id).run();

/** A plan of two units, as planning writes it (jobs/tables.ts job_plans). */
const TWO_UNITS = JSON.stringify([0, 1].map(() => ({ targetId: null, targetAttributes: null, segmentStart: null, segmentEnd: null })));

const status = async (id: string) => env.DB.prepare("SELECT status, error FROM jobs WHERE id = ?").bind(id).first<{ status: string; error: string | null }>();

describe("scheduled sweep", () => {
  it("marks never-started jobs PENDING_ORPHAN, overdue jobs JOB_TIMEOUT, and restarts stalled chains, those planned before drizzle/0051 too", async () => {
    const now = Date.now();
    const orphan = await pendingJob();
    await env.DB.prepare("UPDATE jobs SET created_at = ? WHERE id = ?").bind(now - PENDING_ORPHAN_MS - 1, orphan.row.id).run();
    const overdue = await pendingJob();
    await env.DB.prepare("UPDATE jobs SET status = 'RUNNING', deadline_at = ? WHERE id = ?").bind(now - 1, overdue.row.id).run();
    const lock = credentialLock(env, overdue.credentialId);
    await lock.acquire(overdue.row.id, 60_000);
    const stalled = await pendingJob();
    await env.DB.batch([
      env.DB.prepare("UPDATE jobs SET status = 'RUNNING', total_task_count = 2, completed_task_count = 1, updated_at = ? WHERE id = ?").bind(now - STALL_MS - 1, stalled.row.id),
      env.DB.prepare("INSERT INTO job_plans (job_id, units) VALUES (?, ?)").bind(stalled.row.id, TWO_UNITS),
      env.DB.prepare("INSERT INTO task_units (job_id, unit_index, status, record_count, updated_at) VALUES (?, 0, 'DONE', 3, ?)").bind(stalled.row.id, now),
    ]);
    // Planned before drizzle/0051: a row a unit written at planning, and no plan.
    const stalledBefore = await pendingJob();
    await env.DB.batch([
      env.DB.prepare("UPDATE jobs SET status = 'RUNNING', total_task_count = 2, completed_task_count = 1, updated_at = ? WHERE id = ?").bind(now - STALL_MS - 1, stalledBefore.row.id),
      env.DB.prepare("INSERT INTO task_units (job_id, unit_index, status, record_count, updated_at) VALUES (?, 0, 'DONE', 3, ?), (?, 1, 'QUEUED', NULL, ?)").bind(stalledBefore.row.id, now, stalledBefore.row.id, now),
    ]);
    const fresh = await pendingJob();

    const queue = withCapturedQueue();
    const sent = queue.sent;
    const counts = await sweep(env.DB, { ...pipelineDeps(queue.env), now: () => now });

    expect(counts).toEqual({ timedOut: 1, orphaned: 1, resumed: 2 });
    expect(JSON.parse((await status(orphan.row.id))!.error!)).toMatchObject({ code: "PENDING_ORPHAN", category: "TRANSIENT", retryable: true });
    expect(JSON.parse((await status(overdue.row.id))!.error!)).toMatchObject({ code: "JOB_TIMEOUT" });
    expect(await lock.holds(overdue.row.id)).toBe(false);
    expect(sent).toEqual(
      expect.arrayContaining([
        { type: "unit", jobId: stalled.row.id, workspaceId: stalled.row.workspaceId, unitIndex: 1 },
        { type: "unit", jobId: stalledBefore.row.id, workspaceId: stalledBefore.row.workspaceId, unitIndex: 1 },
      ]),
    );
    expect(sent).toHaveLength(2);
    expect((await status(fresh.row.id))!.status).toBe("PENDING");
    expect((await status(stalled.row.id))!.status).toBe("RUNNING");
  });

  it("leaves a job waiting for its holder's phone alone: no plan sent again, no unit restarted, not orphaned", async () => {
    const now = Date.now();
    const waiting = { method: "SIMPLE_AUTH", provider: "kakao", since: new Date(now - 60_000).toISOString(), until: new Date(now + 240_000).toISOString() };
    const planning = await pendingJob();
    const running = await pendingJob();
    await env.DB.batch([
      env.DB.prepare("UPDATE jobs SET created_at = ?, awaiting_holder = ? WHERE id = ?").bind(now - PENDING_ORPHAN_MS - 1, JSON.stringify(waiting), planning.row.id),
      env.DB.prepare("UPDATE jobs SET status = 'RUNNING', total_task_count = 2, completed_task_count = 1, updated_at = ?, awaiting_holder = ? WHERE id = ?").bind(now - STALL_MS - 1, JSON.stringify(waiting), running.row.id),
      env.DB.prepare("INSERT INTO job_plans (job_id, units) VALUES (?, ?)").bind(running.row.id, TWO_UNITS),
      env.DB.prepare("INSERT INTO task_units (job_id, unit_index, status, record_count, updated_at) VALUES (?, 0, 'DONE', 3, ?)").bind(running.row.id, now),
    ]);
    const queue = withCapturedQueue();
    await sweep(env.DB, { ...pipelineDeps(queue.env), now: () => now });
    // The waiting delivery asks again by itself; a second chain would poll the gateway twice over.
    expect(queue.sent.filter((m) => m.type !== "probe" && [planning.row.id, running.row.id].includes(m.jobId))).toEqual([]);
    expect((await status(planning.row.id))!.status).toBe("PENDING");
    expect((await status(running.row.id))!.status).toBe("RUNNING");
  });

  it("sends the plan of a job left PENDING once more, and gives it up as PENDING_ORPHAN only after a further wait", async () => {
    const { row, queue } = await jobWithLostPlan();
    const deps = pipelineDeps(queue.env);
    const plansOf = () => queue.sent.filter((m) => m.type !== "probe" && m.jobId === row.id);
    const now = Date.now();

    await backdate(row.id, now - PLAN_RESEND_MS + 5_000);
    await sweep(env.DB, { ...deps, now: () => now });
    expect(plansOf()).toEqual([]);

    await backdate(row.id, now - PLAN_RESEND_MS - 1);
    await sweep(env.DB, { ...deps, now: () => now });
    expect(plansOf()).toEqual([{ type: "plan", jobId: row.id, workspaceId: row.workspaceId }]);
    await sweep(env.DB, { ...deps, now: () => now });
    expect(plansOf()).toHaveLength(1);
    expect((await status(row.id))!.status).toBe("PENDING");

    await backdate(row.id, now - PENDING_ORPHAN_MS - 1);
    await sweep(env.DB, { ...deps, now: () => now });
    expect(JSON.parse((await status(row.id))!.error!)).toMatchObject({ code: "PENDING_ORPHAN", category: "TRANSIENT", retryable: true });
    expect(plansOf()).toHaveLength(1);
  });

  it("revives a job whose plan was lost at create: the plan the sweep sends again runs it to Succeeded", async () => {
    const { row, queue } = await jobWithLostPlan();
    const now = Date.now();
    await backdate(row.id, now - PLAN_RESEND_MS - 1);
    const deps = pipelineDeps(queue.env);
    await sweep(env.DB, { ...deps, now: () => now });
    const plan = queue.sent.find((m) => m.type !== "probe" && m.jobId === row.id)!;
    expect(await executeMessage(deps, plan)).toEqual({ kind: "ack" });
    const done = await env.DB.prepare("SELECT status, record_count FROM jobs WHERE id = ?").bind(row.id).first();
    expect(done).toEqual({ status: "SUCCEEDED", record_count: bankGroundTruth("user_good").accounts.length });
  });
});
