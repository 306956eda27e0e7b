import { DurableObject } from "cloudflare:workers";

export const LIMIT_PER_MINUTE = 100;
export const LIMIT_PER_HOUR = 5000;

export interface RateDecision {
  allowed: boolean;
  limitMinute: number;
  limitHour: number;
  /** Requests left in the tighter of the two windows, after this one. */
  remaining: number;
  /** Seconds until the blocking window resets; 0 when allowed. */
  retryAfterSeconds: number;
}

const MINUTE = 60_000;
const HOUR = 3_600_000;

/**
 * Fixed-window counters for one API key (or one client address before
 * authentication). A Durable Object handles one call at a time, so the
 * check-and-increment is exact under any concurrency.
 */
export class RateLimiter extends DurableObject {
  private readonly limitMinute: number;
  private readonly limitHour: number;

  constructor(ctx: DurableObjectState, env: { RATE_LIMIT_PER_MINUTE?: string; RATE_LIMIT_PER_HOUR?: string }) {
    super(ctx, env as never);
    // Overridable only so local load benchmarks can run past the spec's limits; production uses the defaults.
    this.limitMinute = Number(env.RATE_LIMIT_PER_MINUTE || LIMIT_PER_MINUTE);
    this.limitHour = Number(env.RATE_LIMIT_PER_HOUR || LIMIT_PER_HOUR);
    ctx.storage.sql.exec(
      "CREATE TABLE IF NOT EXISTS windows (size INTEGER PRIMARY KEY, started_at INTEGER NOT NULL, count INTEGER NOT NULL)",
    );
  }

  hit(now: number = Date.now()): RateDecision {
    const minute = this.window(MINUTE, now);
    const hour = this.window(HOUR, now);
    const blocked = [minute, hour].filter((w) => w.count >= w.limit);
    if (blocked.length > 0) {
      const resetAt = Math.max(...blocked.map((w) => w.startedAt + w.size));
      return this.decision(false, 0, Math.max(1, Math.ceil((resetAt - now) / 1000)));
    }
    for (const w of [minute, hour]) {
      this.ctx.storage.sql.exec(
        "INSERT INTO windows (size, started_at, count) VALUES (?, ?, 1) ON CONFLICT(size) DO UPDATE SET started_at = excluded.started_at, count = ?",
        w.size,
        w.startedAt,
        w.count + 1,
      );
    }
    const remaining = Math.min(minute.limit - minute.count, hour.limit - hour.count) - 1;
    return this.decision(true, remaining, 0);
  }

  private window(size: number, now: number) {
    const limit = size === MINUTE ? this.limitMinute : this.limitHour;
    const startedAt = now - (now % size);
    const row = this.ctx.storage.sql
      .exec<{ started_at: number; count: number }>("SELECT started_at, count FROM windows WHERE size = ?", size)
      .toArray()[0];
    const count = row && row.started_at === startedAt ? row.count : 0;
    return { size, limit, startedAt, count };
  }

  private decision(allowed: boolean, remaining: number, retryAfterSeconds: number): RateDecision {
    return { allowed, limitMinute: this.limitMinute, limitHour: this.limitHour, remaining, retryAfterSeconds };
  }
}
