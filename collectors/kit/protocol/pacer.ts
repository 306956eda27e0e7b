/** Time as a pacer sees it; injected so tests check the waits asked for without waiting them. */
export interface Clock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

export const REAL_CLOCK: Clock = { now: Date.now, sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)) };

export interface PacerOptions {
  /** Added to each interval, uniformly drawn in [0, jitterMs), so a session's requests do not tick like a clock. */
  jitterMs?: number;
  clock?: Clock;
  random?: () => number;
}

/**
 * Spaces the calls of one session at least `intervalMs` (plus jitter) apart, in the order they asked: the
 * institution sees one client at a human-like pace however many callers share the session.
 */
export class Pacer {
  private last: number | null = null;
  private queue: Promise<void> = Promise.resolve();
  private readonly clock: Clock;

  constructor(
    private readonly intervalMs: number,
    private readonly options: PacerOptions = {},
  ) {
    this.clock = options.clock ?? REAL_CLOCK;
  }

  wait(): Promise<void> {
    if (this.intervalMs <= 0 && !this.options.jitterMs) return Promise.resolve();
    const turn = this.queue.then(async () => {
      if (this.last !== null) {
        const jitter = Math.floor((this.options.random ?? Math.random)() * (this.options.jitterMs ?? 0));
        const due = this.last + this.intervalMs + jitter - this.clock.now();
        if (due > 0) await this.clock.sleep(due);
      }
      this.last = this.clock.now();
    });
    this.queue = turn;
    return turn;
  }
}
