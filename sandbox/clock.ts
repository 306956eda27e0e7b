/**
 * The sandbox institutions' clock, for what they do by the time of day (the
 * tax portal's maintenance window). Unset, the sandbox keeps no hours: a
 * partner's tests must not fail for the hour they happen to run at. Set
 * (`SANDBOX_CLOCK`, or `clock` in tests), it runs from the given moment at real speed.
 */
export type SandboxClock = () => number;

/**
 * The clock a process beside the sandbox shares (the local stack hands the sandbox and the worker one offset, so the
 * service's maintenance calendar keeps the sandbox's hours to the millisecond).
 */
export const clockWithOffset = (offsetMs: number): SandboxClock => () => Date.now() + offsetMs;

export function clockFrom(startIso: string): SandboxClock {
  const start = Date.parse(startIso);
  if (Number.isNaN(start)) throw new Error(`SANDBOX_CLOCK is not a date-time: ${startIso}`);
  const bootedAt = Date.now();
  return () => start + (Date.now() - bootedAt);
}
