import { findSchema } from "../catalog/schemas";
import { ApiError } from "../../platform/errors/api-error";
import { createJob } from "../jobs/create";
import type { JobsEnv } from "../jobs/lifecycle";
import { sinceOf } from "../jobs/since";
import { lastSucceededRun, occurrenceRun, unfinishedRun } from "../jobs/store";
import { latestOccurrence, minimumIntervalMinutes, nextOccurrence, rollingRange } from "../schedules/cron";
import { pauseForFailures } from "../schedules/outcomes";
import { advanceSchedule, findScheduleById, type ScheduleRow } from "../schedules/store";

/** The params of an occurrence's job: the schedule's own, its rolling range ending on the occurrence's day, and the last run's `since`. */
async function runParams(d1: D1Database, schedule: ScheduleRow, occurrence: number): Promise<Record<string, unknown>> {
  if (!findSchema(schedule.schema)?.datedRange || schedule.lastDays === null) return schedule.params;
  const range = rollingRange(schedule.lastDays, occurrence);
  const base = schedule.incremental ? await lastSucceededRun(d1, schedule.id) : null;
  return { ...schedule.params, ...range, ...(base ? { since: sinceOf(base) } : {}) };
}

// The occurrence was not run: the schedule's previous run is still under way.
const SKIPPED = "skipped";

/**
 * The occurrence's job, made once, or SKIPPED while an earlier run has not ended: a second run of the same collection
 * would only wait behind it for the credential and cover what it covers (an incremental one then starts from the same
 * base anyway), so runs of a slow institution never pile up. A second run of the same occurrence (an alarm retried
 * after a crash, the cron's catch-up beside a late alarm) finds its job, by the jobs table's unique (schedule,
 * occurrence).
 */
async function runJob(env: JobsEnv, schedule: ScheduleRow, occurrence: number) {
  const made = await occurrenceRun(env.DB, schedule.id, occurrence);
  if (made) return made;
  if (await unfinishedRun(env.DB, schedule.id)) return SKIPPED;
  const input = { providerCode: schedule.providerCode, schema: schedule.schema, params: await runParams(env.DB, schedule, occurrence), ...(schedule.credentialId ? { credentialId: schedule.credentialId } : {}), ...(schedule.deliveryRouteId ? { deliveryRouteId: schedule.deliveryRouteId } : {}) };
  try {
    return await createJob(env, schedule.workspaceId, input, undefined, { scheduleId: schedule.id, scheduledFor: occurrence });
  } catch (err) {
    const raced = await occurrenceRun(env.DB, schedule.id, occurrence);
    if (raced) return raced;
    throw err;
  }
}

/** The latest occurrence at or before `now`, the stored one at the earliest: what a schedule that was down for a while runs. */
function latestDue(cron: string, stored: number, now: number): number {
  return Math.max(stored, latestOccurrence(cron, now) ?? stored);
}

/** How soon an occurrence the plan's concurrent (scheduled) jobs held back asks for a slot again. */
export const SLOT_RETRY_MS = 60_000;

/**
 * Runs a schedule's due occurrence, if it has one by `now`, and moves it to its next; returns when it is next due,
 * or null when it is not ACTIVE (paused, deleted). Occurrences missed while the service was down are not made up
 * one by one: the latest of them runs once, then the schedule goes on. A run the service refuses outright (the
 * credential gone, the month's cap reached) counts as a failed run, as a job born Failed does. A run the plan's
 * concurrent jobs hold back (TOO_MANY_CONCURRENT_WORKERS: domain/workspaces/plans.ts `concurrentScheduledJobs`,
 * checked inside the job's insert) is no failure: the occurrence stays due and asks again a minute later, until its
 * schedule's next occurrence takes its place. The next occurrence is never less than the deployment's minimum
 * interval after this one (domain/schedules/cron.ts), whatever cron a schedule was stored with before that rule.
 */
export async function runDue(env: JobsEnv & Pick<Env, "SCHEDULE_MIN_INTERVAL_MINUTES">, scheduleId: string, now: number): Promise<number | null> {
  const schedule = await findScheduleById(env.DB, scheduleId);
  if (!schedule || schedule.status !== "ACTIVE" || schedule.nextRunAt === null) return null;
  if (schedule.nextRunAt > now) return schedule.nextRunAt;
  const occurrence = latestDue(schedule.cron, schedule.nextRunAt, now);
  let refused: ApiError | null = null;
  let skipped = false;
  try {
    skipped = (await runJob(env, schedule, occurrence)) === SKIPPED;
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    if (err.code === "TOO_MANY_CONCURRENT_WORKERS") return now + SLOT_RETRY_MS;
    refused = err;
  }
  const next = nextOccurrence(schedule.cron, occurrence + minimumIntervalMinutes(env) * 60_000 - 1);
  const moved = await advanceSchedule(env.DB, schedule.id, schedule.nextRunAt, next, now, skipped ? occurrence : undefined);
  if (refused && moved) await pauseForFailures(env, moved, refused.message, now);
  return moved?.nextRunAt ?? (await findScheduleById(env.DB, scheduleId))?.nextRunAt ?? null;
}
