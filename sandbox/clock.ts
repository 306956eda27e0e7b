/**
 * The sandbox institutions' clock, for what they do by the time of day (their
 * maintenance windows). Unset, the sandbox keeps no hours: a partner's tests
 * must not fail for the hour they happen to run at. Set (`SANDBOX_CLOCK`,
 * `PUT /sandbox/clock`, or `clock` in tests), it runs from the given moment at
 * real speed. A clock answers undefined while it keeps no hours.
 */
export type SandboxClock = () => number | undefined;

/** The sandbox's clock while it runs: set and cleared through `/sandbox/clock` (sandbox/server.ts). */
export class SandboxTime {
  constructor(private clock?: SandboxClock) {}

  readonly now: SandboxClock = () => this.clock?.();

  set(clock: SandboxClock | undefined): void {
    this.clock = clock;
  }
}

export function clockFrom(startIso: string): () => number {
  const start = Date.parse(startIso);
  if (Number.isNaN(start)) throw new Error(`SANDBOX_CLOCK is not a date-time: ${startIso}`);
  const bootedAt = Date.now();
  return () => start + (Date.now() - bootedAt);
}
