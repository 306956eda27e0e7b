import { Cron } from "croner";

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
