import { armSchedule } from "../schedules/alarm";
import { runDue } from "./run";
import { dueSchedules } from "../schedules/store";

/** An alarm this late has been lost (an object moved, a deploy in between): the minute's cron runs its occurrence. */
const LOST_AFTER_MS = 60_000;
const PER_RUN = 50;

/**
 * Run by the minute's cron: occurrences whose alarm did not fire run now, and their alarms are set again. run.ts
 * makes an occurrence once, so an alarm firing just now as well does no harm.
 */
export async function runMissedSchedules(env: Env, now = Date.now()): Promise<number> {
  const missed = await dueSchedules(env.DB, now - LOST_AFTER_MS, PER_RUN);
  for (const schedule of missed) await armSchedule(env, schedule.id, await runDue(env, schedule.id, now));
  return missed.length;
}
