import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { ScheduleAlarm } from "../../../../worker/domain/schedule-runs/schedule-alarm";
import { createWorkspace } from "../../../support/workers/helpers";

const HOUR = 3_600_000;

/** The alarm of one schedule, named as domain/schedules/alarm.ts names it. */
const alarmOf = (scheduleId: string) => env.SCHEDULE_ALARMS.get(env.SCHEDULE_ALARMS.idFromName(scheduleId));

/** What the object keeps: its storage's keys and values, and its alarm. */
const kept = (stub: DurableObjectStub<ScheduleAlarm>) =>
  runInDurableObject(stub, async (_alarm: ScheduleAlarm, state) => ({ stored: Object.fromEntries(await state.storage.list()), alarm: await state.storage.getAlarm() }));

describe("ScheduleAlarm", () => {
  it("keeps the schedule's id and an alarm at the time it is armed for, and nothing once armed with none", async () => {
    const scheduleId = crypto.randomUUID();
    const stub = alarmOf(scheduleId);
    const at = Date.now() + HOUR;
    await stub.arm(scheduleId, at);
    expect(await kept(stub)).toEqual({ stored: { scheduleId }, alarm: at });
    await stub.arm(scheduleId, at + HOUR);
    expect(await kept(stub)).toEqual({ stored: { scheduleId }, alarm: at + HOUR });
    await stub.arm(scheduleId, null);
    expect(await kept(stub)).toEqual({ stored: {}, alarm: null });
    expect(await runDurableObjectAlarm(stub)).toBe(false);
  });

  it("runs the due occurrence from its alarm once, sets itself for the next one, and clears itself once the schedule stops", async () => {
    const ws = await createWorkspace();
    const scheduleId = crypto.randomUUID();
    const now = Date.now();
    // Hourly, from the hour that began: its next occurrence is the next hour.
    const due = now - (now % HOUR);
    // A schedule of a workspace without credentials: its run is made, born Failed, and no collection starts.
    await env.DB.prepare(
      `INSERT INTO schedules (id, workspace_id, provider_code, schema, cron, params, incremental, status, next_run_at, consecutive_failures, skipped_runs, created_at, updated_at)
       VALUES (?, ?, 'sandbox.bank', 'bank.accounts.cb.v1', '0 * * * *', '{}', 0, 'ACTIVE', ?, 0, 0, ?, ?)`,
    )
      .bind(scheduleId, ws.workspaceId, due, now, now)
      .run();
    const runs = async () =>
      (await env.DB.prepare("SELECT scheduled_for AS scheduledFor, status FROM jobs WHERE schedule_id = ?").bind(scheduleId).all<{ scheduledFor: number; status: string }>()).results;
    const nextRunAt = async () => (await env.DB.prepare("SELECT next_run_at AS n FROM schedules WHERE id = ?").bind(scheduleId).first<{ n: number | null }>())!.n;

    const stub = alarmOf(scheduleId);
    // Armed for later (an alarm in the past would fire on its own), then fired now.
    await stub.arm(scheduleId, now + 2 * HOUR);
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    // The occurrence run is the latest due (`due`, unless the hour turned since): one run, and the alarm an hour on.
    const [run, ...more] = await runs();
    expect(more).toEqual([]);
    expect(run!.status).toBe("FAILED");
    expect(run!.scheduledFor % HOUR).toBe(0);
    expect(run!.scheduledFor).toBeGreaterThanOrEqual(due);
    expect(run!.scheduledFor).toBeLessThanOrEqual(Date.now());
    const next = run!.scheduledFor + HOUR;
    expect(await nextRunAt()).toBe(next);
    expect(await kept(stub)).toEqual({ stored: { scheduleId }, alarm: next });

    // Fired early (or twice): the occurrence is not yet due, nothing is made, the alarm stays where it was.
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(await runs()).toHaveLength(1);
    expect(await kept(stub)).toEqual({ stored: { scheduleId }, alarm: next });

    // Paused in D1: the next firing finds nothing to run and leaves the object empty.
    await env.DB.prepare("UPDATE schedules SET status = 'PAUSED', next_run_at = NULL WHERE id = ?").bind(scheduleId).run();
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(await kept(stub)).toEqual({ stored: {}, alarm: null });
    expect(await runDurableObjectAlarm(stub)).toBe(false);
  });
});
