import { env } from "cloudflare:workers";
import { runDurableObjectAlarm } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import { sinceOf } from "../../../../worker/domain/jobs/since";
import { runMissedSchedules } from "../../../../worker/domain/schedule-runs/catch-up";
import { runDue, SLOT_RETRY_MS } from "../../../../worker/domain/schedule-runs/run";
import { createJob } from "../../../../worker/domain/jobs/create";
import { PLAN_LIMITS } from "../../../../worker/domain/workspaces/plans";
import { addCredential, callJson, createWorkspace, jobInWorkspace, type TestWorkspace, withCapturedQueue } from "../../../support/workers/helpers";

type Json = Record<string, any>;

const MINUTE = 60_000;
const kstDay = (at: number) => new Date(at + 9 * 3_600_000).toISOString().slice(0, 10);
const TRANSACTIONS = { providerCode: "sandbox.bank", schema: "bank.transactions.cb.v1" };

async function create(ws: TestWorkspace, body: Json) {
  return callJson<Json>("/api/v1/schedules", { method: "POST", key: ws.apiKey, json: body });
}

async function created(ws: TestWorkspace, body: Json): Promise<Json> {
  const res = await create(ws, body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

/** Makes the schedule's stored next occurrence `at` (a past one is due now). */
const dueAt = (id: string, at: number) => env.DB.prepare("UPDATE schedules SET next_run_at = ? WHERE id = ?").bind(at, id).run();
const runsOf = async (id: string) => (await env.DB.prepare("SELECT id, params, scheduled_for AS scheduledFor, since_job_id AS sinceJobId FROM jobs WHERE schedule_id = ? ORDER BY scheduled_for").bind(id).all<Json>()).results;
// Runs here are only made, not collected: their plan messages are captured.
const quiet = () => withCapturedQueue().env as Env;

describe("schedules", () => {
  it("runs each due occurrence once as a normal job over its rolling range, from its alarm, the minute's cron or both", async () => {
    const ws = await createWorkspace();
    await addCredential(ws.workspaceId);
    const schedule = await created(ws, { ...TRANSACTIONS, cron: "*/15 * * * *", lastDays: 3 });
    expect(schedule).toMatchObject({ status: "ACTIVE", timeZone: "Asia/Seoul", lastDays: 3, consecutiveFailures: 0 });
    const next = Date.parse(schedule.nextRunAt);
    expect(next).toBeGreaterThan(Date.now());
    expect(new Date(next).getUTCMinutes() % 15).toBe(0);

    // The alarm fires at its time: here the occurrence is made due and the object's alarm run.
    const occurrence = Date.now() - 1000;
    await dueAt(schedule.id, occurrence);
    const alarm = env.SCHEDULE_ALARMS.get(env.SCHEDULE_ALARMS.idFromName(schedule.id));
    expect(await runDurableObjectAlarm(alarm)).toBe(true);
    // A second firing for the same occurrence, and two at once, make nothing more.
    await Promise.all([runDue(quiet(), schedule.id, occurrence), runDue(quiet(), schedule.id, occurrence)]);
    const runs = await runsOf(schedule.id);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ scheduledFor: occurrence, sinceJobId: null });
    expect(JSON.parse(runs[0]!.params)).toEqual({ dateRangeStart: kstDay(occurrence - 2 * 86_400_000), dateRangeEnd: kstDay(occurrence) });
    const after = (await callJson<Json>(`/api/v1/schedules/${schedule.id}`, { key: ws.apiKey })).body;
    expect(Date.parse(after.nextRunAt)).toBeGreaterThan(Date.now());
    // The alarm's run is a normal job: it is collected and succeeds.
    const job = async () => (await callJson<Json>(`/api/v1/data-jobs/${runs[0]!.id}`, { key: ws.apiKey })).body;
    await vi.waitUntil(async () => (await job()).kind !== "InProgress", { timeout: 180_000, interval: 200 });
    expect(await job()).toMatchObject({ kind: "Succeeded" });
    const listed = (await callJson<Json>(`/api/v1/schedules/${schedule.id}/runs`, { key: ws.apiKey })).body;
    expect(listed.items).toEqual([expect.objectContaining({ id: runs[0]!.id, schema: TRANSACTIONS.schema, kind: "Succeeded", scheduledFor: new Date(occurrence).toISOString() })]);

    // An occurrence whose alarm was lost runs from the minute's cron, once, and its alarm is set again.
    await dueAt(schedule.id, Date.now() - 2 * MINUTE);
    expect(await runMissedSchedules(quiet())).toBeGreaterThanOrEqual(1);
    expect(await runsOf(schedule.id)).toHaveLength(2);
    expect(await runDurableObjectAlarm(alarm)).toBe(true);
    expect(await runsOf(schedule.id)).toHaveLength(2);
    expect((await callJson<Json>(`/api/v1/schedules/${schedule.id}`, { method: "DELETE", key: ws.apiKey })).status).toBe(204);
    expect(await runDurableObjectAlarm(alarm)).toBe(false);
  });

  it("runs only the latest occurrence missed while the service was down, once, then goes on from the next", async () => {
    const ws = await createWorkspace();
    await addCredential(ws.workspaceId);
    const schedule = await created(ws, { providerCode: "sandbox.bank", schema: "bank.accounts.cb.v1", cron: "*/15 * * * *" });
    // A day of missed occurrences, the stored one on the cron's grid as the service leaves it.
    const now = Date.now();
    const latest = now - (now % (15 * MINUTE));
    await dueAt(schedule.id, latest - 24 * 60 * MINUTE);
    await runDue(quiet(), schedule.id, now);
    expect((await runsOf(schedule.id)).map((r) => r.scheduledFor)).toEqual([latest]);
    const after = (await callJson<Json>(`/api/v1/schedules/${schedule.id}`, { key: ws.apiKey })).body;
    expect(Date.parse(after.nextRunAt)).toBe(latest + 15 * MINUTE);
    await callJson(`/api/v1/schedules/${schedule.id}`, { method: "DELETE", key: ws.apiKey });
  });

  it("passes an incremental schedule's runs the since of its last succeeded run", async () => {
    const ws = await createWorkspace();
    const schedule = await created(ws, { ...TRANSACTIONS, cron: "0 3 * * *", lastDays: 1, incremental: true });
    const base = await jobInWorkspace(ws.workspaceId, [[]], [0]);
    await env.DB.prepare("UPDATE jobs SET schedule_id = ?, scheduled_for = 1 WHERE id = ?").bind(schedule.id, base).run();
    const occurrence = Date.now() - 1000;
    await dueAt(schedule.id, occurrence);
    await runDue(quiet(), schedule.id, occurrence);
    const run = (await runsOf(schedule.id)).find((r) => r.scheduledFor === occurrence)!;
    expect(run.sinceJobId).toBe(base);
    expect(JSON.parse(run.params).since).toBe(sinceOf({ id: base }));
    await callJson(`/api/v1/schedules/${schedule.id}`, { method: "DELETE", key: ws.apiKey });
  });

  it("skips an occurrence while its previous run is still under way, counting the skip, and runs the next one after it ended", async () => {
    const ws = await createWorkspace();
    await addCredential(ws.workspaceId);
    const schedule = await created(ws, { ...TRANSACTIONS, cron: "*/15 * * * *", lastDays: 1 });
    expect(schedule).toMatchObject({ skippedRuns: 0, lastSkippedFor: null });
    const runAt = async (occurrence: number) => {
      await dueAt(schedule.id, occurrence);
      await runDue(quiet(), schedule.id, occurrence);
    };
    // The first run's plan is only captured: it stays PENDING, as a run waiting behind a slow institution does.
    const first = Date.now() - 3 * MINUTE;
    await runAt(first);
    const second = Date.now() - 2 * MINUTE;
    await runAt(second);
    expect((await runsOf(schedule.id)).map((r) => r.scheduledFor)).toEqual([first]);
    const view = (await callJson<Json>(`/api/v1/schedules/${schedule.id}`, { key: ws.apiKey })).body;
    expect(view).toMatchObject({ status: "ACTIVE", skippedRuns: 1, lastSkippedFor: new Date(second).toISOString(), consecutiveFailures: 0 });
    expect(Date.parse(view.nextRunAt)).toBeGreaterThan(second);

    await env.DB.prepare("UPDATE jobs SET status = 'SUCCEEDED' WHERE schedule_id = ?").bind(schedule.id).run();
    const third = Date.now() - MINUTE;
    await runAt(third);
    expect((await runsOf(schedule.id)).map((r) => r.scheduledFor)).toEqual([first, third]);
    expect((await callJson<Json>(`/api/v1/schedules/${schedule.id}`, { key: ws.apiKey })).body).toMatchObject({ skippedRuns: 1 });
    await callJson(`/api/v1/schedules/${schedule.id}`, { method: "DELETE", key: ws.apiKey });
  });

  it("pauses itself after three runs that cannot succeed, saying why in a schedule.paused event; resumed, it counts anew", async () => {
    const ws = await createWorkspace();
    const endpoint = (await callJson<Json>("/api/v1/webhook-endpoints", { method: "POST", key: ws.apiKey, json: { url: `${env.TEST_WEBHOOK_RECEIVER_URL}/hooks/${crypto.randomUUID()}`, events: ["schedule.paused"] } })).body;
    // No credential: every run is born Failed with CREDENTIAL_NOT_FOUND, which no retry mends.
    const schedule = await created(ws, { providerCode: "sandbox.bank", schema: "bank.accounts.cb.v1", cron: "*/15 * * * *" });
    for (let i = 3; i >= 1; i--) {
      const occurrence = Date.now() - i * MINUTE;
      await dueAt(schedule.id, occurrence);
      await runDue(quiet(), schedule.id, occurrence);
    }
    const paused = (await callJson<Json>(`/api/v1/schedules/${schedule.id}`, { key: ws.apiKey })).body;
    expect(paused).toMatchObject({ status: "PAUSED", nextRunAt: null, consecutiveFailures: 3 });
    expect(paused.pausedReason).toContain("연속 3회 실패");
    expect(paused.pausedReason).toContain("자격 증명");
    const deliveries = (await callJson<Json>(`/api/v1/webhook-endpoints/${endpoint.id}/deliveries`, { key: ws.apiKey })).body.items;
    expect(deliveries.map((d: Json) => [d.eventType, JSON.parse(d.payload).data.object])).toEqual([["schedule.paused", paused]]);
    // Paused, a due occurrence makes nothing.
    expect(await runDue(quiet(), schedule.id, Date.now())).toBeNull();
    expect(await runsOf(schedule.id)).toHaveLength(3);

    const resumed = (await callJson<Json>(`/api/v1/schedules/${schedule.id}/resume`, { method: "POST", key: ws.apiKey })).body;
    expect(resumed).toMatchObject({ status: "ACTIVE", pausedReason: null, consecutiveFailures: 0 });
    expect(Date.parse(resumed.nextRunAt)).toBeGreaterThan(Date.now());
    await callJson(`/api/v1/schedules/${schedule.id}`, { method: "DELETE", key: ws.apiKey });
  });

  it("refuses a schedule that could never run, and keeps each workspace's schedules its own", async () => {
    const ws = await createWorkspace();
    const refusals: [Json, number, string, string][] = [
      [{ ...TRANSACTIONS, cron: "every night", lastDays: 1 }, 400, "INVALID_PARAM_FORMAT", "body.cron"],
      [{ ...TRANSACTIONS, cron: "0 0 3 * * *", lastDays: 1 }, 400, "INVALID_PARAM_FORMAT", "body.cron"],
      [{ ...TRANSACTIONS, cron: "0 3 * * *" }, 400, "MISSING_REQUIRED_PARAM", "body.lastDays"],
      [{ providerCode: "sandbox.bank", schema: "bank.accounts.cb.v1", cron: "0 3 * * *", lastDays: 2 }, 400, "INVALID_DATA_JOB_PARAMS", "body.lastDays"],
      [{ ...TRANSACTIONS, cron: "0 3 * * *", lastDays: 1, params: { currencyCode: "won" } }, 400, "INVALID_PARAM_FORMAT", "body.params.currencyCode"],
      [{ ...TRANSACTIONS, cron: "0 3 * * *", lastDays: 1, params: { since: "x" } }, 400, "INVALID_DATA_JOB_PARAMS", "body.params.since"],
      [{ providerCode: "nowhere", schema: "bank.accounts.cb.v1", cron: "0 3 * * *" }, 400, "INVALID_PROVIDER_CODE", "body.providerCode"],
    ];
    for (const [body, status, code, field] of refusals) {
      const res = await create(ws, body);
      expect([res.status, res.body.code, res.body.fieldErrors?.[0]?.field], JSON.stringify(body)).toEqual([status, code, field]);
      expect(res.body.message).toMatch(/[가-힣]/);
    }
    expect((await callJson<Json>("/api/v1/schedules", { key: ws.apiKey })).body).toEqual({ items: [], nextCursor: null });

    const mine = await created(ws, { ...TRANSACTIONS, cron: "0 3 * * *", lastDays: 7 });
    const other = await createWorkspace();
    for (const path of [`/api/v1/schedules/${mine.id}`, `/api/v1/schedules/${mine.id}/runs`]) expect((await callJson<Json>(path, { key: other.apiKey })).status).toBe(404);
    expect((await callJson<Json>(`/api/v1/schedules/${mine.id}/pause`, { method: "POST", key: other.apiKey })).status).toBe(404);
    const paused = (await callJson<Json>(`/api/v1/schedules/${mine.id}/pause`, { method: "POST", key: ws.apiKey })).body;
    expect(paused).toMatchObject({ status: "PAUSED", nextRunAt: null, pausedReason: null });
    expect((await callJson<Json>(`/api/v1/schedules/${mine.id}`, { method: "DELETE", key: ws.apiKey })).status).toBe(204);
    expect((await callJson<Json>(`/api/v1/schedules/${mine.id}`, { key: ws.apiKey })).status).toBe(404);
  });

  it("refuses a cron that would run again within 15 minutes, checked over every run it will have, and keeps old rows 15 minutes apart", async () => {
    const ws = await createWorkspace();
    // Every minute, every five, ten minutes apart within an hour, and ten minutes apart across midnight, every day or
    // only from a Saturday night into Sunday (on Saturdays and Sundays only, their last and first runs are the close ones).
    for (const cron of ["* * * * *", "*/5 * * * *", "0,10 3 * * *", "5,55 0,23 * * *", "5,55 0,23 * * 0,6"]) {
      const res = await create(ws, { providerCode: "sandbox.bank", schema: "bank.accounts.cb.v1", cron });
      expect([cron, res.status, res.body.code, res.body.fieldErrors?.[0]?.field]).toEqual([cron, 400, "INVALID_PARAM_FORMAT", "body.cron"]);
      expect(res.body.fieldErrors[0].message).toContain("15분 이상");
    }
    expect((await callJson<Json>("/api/v1/schedules", { key: ws.apiKey })).body.items).toEqual([]);
    // Ten minutes apart across midnight, but never on two days in a row (Mondays only), and exactly 15 minutes apart, are allowed.
    const mondays = await created(ws, { providerCode: "sandbox.bank", schema: "bank.accounts.cb.v1", cron: "5,55 0,23 * * 1" });
    await callJson(`/api/v1/schedules/${mondays.id}`, { method: "DELETE", key: ws.apiKey });
    const quarterly = await created(ws, { providerCode: "sandbox.bank", schema: "bank.accounts.cb.v1", cron: "*/15 * * * *" });

    // A row stored before the rule with an every-minute cron still runs at most every 15 minutes.
    await env.DB.prepare("UPDATE schedules SET cron = '* * * * *' WHERE id = ?").bind(quarterly.id).run();
    const occurrence = Date.now() - (Date.now() % MINUTE) - MINUTE;
    await dueAt(quarterly.id, occurrence);
    await runDue(quiet(), quarterly.id, occurrence);
    const after = (await callJson<Json>(`/api/v1/schedules/${quarterly.id}`, { key: ws.apiKey })).body;
    expect(Date.parse(after.nextRunAt)).toBe(occurrence + 15 * MINUTE);
    await callJson(`/api/v1/schedules/${quarterly.id}`, { method: "DELETE", key: ws.apiKey });
  });

  it("keeps one active schedule per credential and schema, however many are asked for at once, and resumes none beside it", async () => {
    const ws = await createWorkspace();
    const credentialId = await addCredential(ws.workspaceId);
    const body = { ...TRANSACTIONS, credentialId, cron: "0 3 * * *", lastDays: 1 };
    // Five at once: one is made.
    const answers = await Promise.all(Array.from({ length: 5 }, () => create(ws, body)));
    expect(answers.map((a) => a.status).sort()).toEqual([201, 400, 400, 400, 400]);
    const first = answers.find((a) => a.status === 201)!.body;
    for (const refused of answers.filter((a) => a.status === 400)) {
      expect([refused.body.code, refused.body.fieldErrors?.[0]?.field]).toEqual(["INVALID_DATA_JOB_PARAMS", "body.credentialId"]);
      expect(refused.body.message).toContain("실행 중인 일정은 하나");
    }
    // Another cron is the same collection on the same credential; another schema is not.
    expect((await create(ws, { ...body, cron: "0 4 * * *" })).body.code).toBe("INVALID_DATA_JOB_PARAMS");
    expect((await create(ws, { providerCode: "sandbox.bank", schema: "bank.accounts.cb.v1", credentialId, cron: "0 3 * * *" })).status).toBe(201);
    // Schedules naming no credential share the provider's default one: one of them per schema.
    expect((await create(ws, { ...TRANSACTIONS, cron: "0 5 * * *", lastDays: 1 })).status).toBe(201);
    const byDefault = await create(ws, { ...TRANSACTIONS, cron: "0 6 * * *", lastDays: 1 });
    expect([byDefault.status, byDefault.body.code, byDefault.body.fieldErrors?.[0]?.field]).toEqual([400, "INVALID_DATA_JOB_PARAMS", "body.schema"]);

    // Paused, it makes room; resumed beside its successor, it is refused and stays paused.
    await callJson(`/api/v1/schedules/${first.id}/pause`, { method: "POST", key: ws.apiKey });
    const successor = await created(ws, { ...body, cron: "30 3 * * *" });
    const resumed = await callJson<Json>(`/api/v1/schedules/${first.id}/resume`, { method: "POST", key: ws.apiKey });
    expect([resumed.status, resumed.body.code]).toEqual([400, "INVALID_DATA_JOB_PARAMS"]);
    expect((await callJson<Json>(`/api/v1/schedules/${first.id}`, { key: ws.apiKey })).body.status).toBe("PAUSED");
    const active = await env.DB.prepare("SELECT count(*) AS n FROM schedules WHERE workspace_id = ? AND status = 'ACTIVE'").bind(ws.workspaceId).first<{ n: number }>();
    expect(active!.n).toBe(3);
    for (const { id } of (await env.DB.prepare("SELECT id FROM schedules WHERE workspace_id = ?").bind(ws.workspaceId).all<Json>()).results) {
      await callJson(`/api/v1/schedules/${id}`, { method: "DELETE", key: ws.apiKey });
    }
    expect(successor.status).toBe("ACTIVE");
  });

  it("runs at most a PRO plan's concurrent scheduled jobs at once: an occurrence over the cap waits for a slot, neither failing nor skipped", async () => {
    const ws = await createWorkspace();
    await env.DB.prepare("UPDATE workspaces SET plan = 'PRO' WHERE id = ?").bind(ws.workspaceId).run();
    await addCredential(ws.workspaceId);
    const cap = PLAN_LIMITS.PRO.concurrentScheduledJobs!;
    // The cap's worth of unfinished runs of another schedule of the workspace.
    const other = crypto.randomUUID();
    for (let i = 0; i < cap; i++) {
      const job = await createJob(quiet(), ws.workspaceId, { providerCode: "sandbox.bank", schema: "bank.accounts.cb.v1" });
      await env.DB.prepare("UPDATE jobs SET schedule_id = ?, scheduled_for = ? WHERE id = ?").bind(other, i, job.id).run();
    }
    const schedule = await created(ws, { ...TRANSACTIONS, cron: "0 3 * * *", lastDays: 1 });
    const occurrence = Date.now() - MINUTE;
    await dueAt(schedule.id, occurrence);
    const now = Date.now();
    expect(await runDue(quiet(), schedule.id, now)).toBe(now + SLOT_RETRY_MS);
    expect(await runsOf(schedule.id)).toEqual([]);
    const waiting = (await callJson<Json>(`/api/v1/schedules/${schedule.id}`, { key: ws.apiKey })).body;
    expect(waiting).toMatchObject({ status: "ACTIVE", nextRunAt: new Date(occurrence).toISOString(), consecutiveFailures: 0, skippedRuns: 0 });
    // A job asked for through the API is not a scheduled one: PRO runs those without a cap.
    expect((await createJob(quiet(), ws.workspaceId, { providerCode: "sandbox.bank", schema: "bank.accounts.cb.v1" })).status).toBe("PENDING");

    // A slot frees: the waiting occurrence runs, once, and the schedule moves on.
    await env.DB.prepare("UPDATE jobs SET status = 'SUCCEEDED' WHERE schedule_id = ? AND scheduled_for = 0").bind(other).run();
    expect(await runDue(quiet(), schedule.id, Date.now())).toBeGreaterThan(Date.now());
    expect((await runsOf(schedule.id)).map((r) => r.scheduledFor)).toEqual([occurrence]);
    await callJson(`/api/v1/schedules/${schedule.id}`, { method: "DELETE", key: ws.apiKey });
  });
});
