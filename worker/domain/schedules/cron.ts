import { Cron } from "croner";
import { numberOr } from "../../platform/configuration";
import { DAY_MS, kstDate, kstMidnight } from "../../../contracts/korean-time";

/**
 * Five fields (minute, hour, day of month, month, day of week) in Korean time: at most one run a minute. Seconds
 * fields, nicknames and year fields are refused, so an expression means the same here as in any crontab.
 */
const FIVE_FIELDS = /^\S+(\s+\S+){4}$/;

/** The cron, or null when it is not a five-field expression with a next run. */
export function parseCron(expression: string): Cron | null {
  if (!FIVE_FIELDS.test(expression.trim())) return null;
  try {
    const cron = new Cron(expression.trim(), { timezone: "Asia/Seoul", paused: true });
    return cron.nextRun() ? cron : null;
  } catch {
    return null;
  }
}

/** The first occurrence strictly after `after` (ms). */
export function nextOccurrence(expression: string, after: number): number {
  return parseCron(expression)!.nextRun(new Date(after))!.getTime();
}

/** The latest occurrence at or before `at` (ms), or null when the expression has none before it. */
export function latestOccurrence(expression: string, at: number): number | null {
  // croner counts a run earlier in the reference's own second as before it: a millisecond on takes one at `at` itself.
  return parseCron(expression)!.previousRuns(1, new Date(at + 1))[0]?.getTime() ?? null;
}

/** The fewest minutes a schedule may leave between two of its runs (docs/scheduling.md, docs/security.md). */
export const MIN_INTERVAL_MINUTES = 15;

/**
 * The floor a deployment keeps: MIN_INTERVAL_MINUTES, or less only where SCHEDULE_MIN_INTERVAL_MINUTES says so (the
 * local stack's fault suite, which needs a run every minute; never production). It can only be lowered, to a minute.
 */
export function minimumIntervalMinutes(env: { SCHEDULE_MIN_INTERVAL_MINUTES?: string }): number {
  const set = numberOr(env.SCHEDULE_MIN_INTERVAL_MINUTES, MIN_INTERVAL_MINUTES);
  return Number.isInteger(set) ? Math.min(MIN_INTERVAL_MINUTES, Math.max(1, set)) : MIN_INTERVAL_MINUTES;
}

const MINUTE_MS = 60_000;
/** Every (month, weekday of its first day, leap or not) a calendar can have comes round within 28 years (1901-2099). */
const CALENDAR_CYCLE_DAYS = 28 * 366;

/**
 * The shortest time between two consecutive runs of a valid expression, in minutes, when it is under `floor`; null
 * when every two runs are `floor` minutes apart or more. Exact, for every run the expression will ever have: each
 * day it runs, it runs at the same times (the minute and hour fields), so the gaps within a day are those of one
 * whole day's runs, and the only other gap under a day is from its last run to the first of the next day, which
 * counts only if the expression ever runs on two days in a row (day of month, month and weekday), checked over a
 * whole cycle of the calendar.
 */
export function shortIntervalMinutes(expression: string, floor: number, now = Date.now()): number | null {
  const cron = parseCron(expression)!;
  const [, , dayOfMonth, month, weekday] = expression.trim().split(/\s+/);
  const days = new Cron(`0 0 ${dayOfMonth} ${month} ${weekday}`, { timezone: "Asia/Seoul", paused: true });
  const firstDay = days.nextRun(new Date(now))!.getTime();
  // One whole day's runs; more of them than fit `floor` apart already has a gap under it.
  const runs = cron
    .nextRuns(Math.ceil(1440 / floor) + 1, new Date(firstDay - 1000))
    .map((run) => run.getTime())
    .filter((at) => at < firstDay + DAY_MS);
  let shortest = Number.POSITIVE_INFINITY;
  for (let i = 1; i < runs.length; i++) shortest = Math.min(shortest, runs[i]! - runs[i - 1]!);
  const overnight = runs[0]! + DAY_MS - runs[runs.length - 1]!;
  if (overnight < floor * MINUTE_MS && overnight < shortest && runsTwoDaysInARow(days, firstDay)) shortest = overnight;
  return shortest < floor * MINUTE_MS ? shortest / MINUTE_MS : null;
}

function runsTwoDaysInARow(days: Cron, from: number): boolean {
  const midnight = kstMidnight(from);
  let previous = false;
  for (let day = midnight; day <= midnight + CALENDAR_CYCLE_DAYS * DAY_MS; day += DAY_MS) {
    const runs = days.match(new Date(day));
    if (runs && previous) return true;
    previous = runs;
  }
  return false;
}

/** A run's range: the `lastDays` days ending on the Korean day of `at`, as a job's params name them. */
export function rollingRange(lastDays: number, at: number): { dateRangeStart: string; dateRangeEnd: string } {
  return { dateRangeStart: kstDate(at - (lastDays - 1) * DAY_MS), dateRangeEnd: kstDate(at) };
}
