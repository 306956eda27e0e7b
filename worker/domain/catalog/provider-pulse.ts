import { DurableObject } from "cloudflare:workers";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * Upper bounds (ms) of the duration buckets a job's time from creation to its end falls in (the last takes anything
 * longer too): the median is read to a bucket, not a millisecond, so a minute's jobs cost one row however many there are.
 */
export const DURATION_BUCKETS_MS = [2_000, 5_000, 10_000, 20_000, 30_000, 60_000, 120_000, 300_000, 600_000, 1_800_000, 3_600_000];

/** A job's end as the provider's status counts it: `ok` null for a failure the user's side caused (a wrong password), which says nothing of the institution. */
export interface JobPulse {
  ok: boolean | null;
  durationMs: number;
  at: number;
}

export interface PulseWindow {
  /** Jobs that ended, the user's side's failures included. */
  jobs: number;
  /** Succeeded among those that ended for the institution's or our reasons; null when none did. */
  successRate: number | null;
  /** Of the succeeded jobs, to the upper bound of its duration bucket; null when none succeeded. */
  medianDurationMs: number | null;
}

/**
 * One per provider (`providerPulse`): how its jobs ended over the last hour and day, in minute rows, for the
 * provider's `status` (api/providers/views.ts) and the public status page. Recording costs one row upsert.
 */
export class ProviderPulse extends DurableObject<Env> {
  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    ctx.storage.sql.exec(`CREATE TABLE IF NOT EXISTS minutes (
      minute INTEGER PRIMARY KEY, ended INTEGER NOT NULL, counted INTEGER NOT NULL, succeeded INTEGER NOT NULL, buckets TEXT NOT NULL)`);
  }

  record(pulse: JobPulse): void {
    const minute = Math.floor(pulse.at / MINUTE);
    const row = this.ctx.storage.sql.exec<{ buckets: string }>("SELECT buckets FROM minutes WHERE minute = ?", minute).toArray()[0];
    const buckets: number[] = row ? JSON.parse(row.buckets) : DURATION_BUCKETS_MS.map(() => 0);
    const bucket = DURATION_BUCKETS_MS.findIndex((bound) => pulse.durationMs <= bound);
    if (pulse.ok) buckets[bucket < 0 ? DURATION_BUCKETS_MS.length - 1 : bucket]! += 1;
    this.ctx.storage.sql.exec(
      `INSERT INTO minutes (minute, ended, counted, succeeded, buckets) VALUES (?1, 1, ?2, ?3, ?4)
       ON CONFLICT(minute) DO UPDATE SET ended = ended + 1, counted = counted + ?2, succeeded = succeeded + ?3, buckets = ?4`,
      minute,
      pulse.ok === null ? 0 : 1,
      pulse.ok ? 1 : 0,
      JSON.stringify(buckets),
    );
    this.ctx.storage.sql.exec("DELETE FROM minutes WHERE minute < ?", minute - DAY / MINUTE);
  }

  summary(now: number = Date.now()): { lastHour: PulseWindow; lastDay: PulseWindow } {
    const rows = this.ctx.storage.sql
      .exec<{ minute: number; ended: number; counted: number; succeeded: number; buckets: string }>("SELECT * FROM minutes WHERE minute > ?", Math.floor((now - DAY) / MINUTE))
      .toArray();
    const since = (ms: number) => rows.filter((r) => r.minute > Math.floor((now - ms) / MINUTE));
    return { lastHour: windowOf(since(HOUR)), lastDay: windowOf(rows) };
  }
}

function windowOf(stored: { ended: number; counted: number; succeeded: number; buckets: string }[]): PulseWindow {
  const rows = stored.map((r) => ({ ...r, buckets: JSON.parse(r.buckets) as number[] }));
  const sum = (pick: (r: (typeof rows)[number]) => number) => rows.reduce((n, r) => n + pick(r), 0);
  const counted = sum((r) => r.counted);
  const succeeded = sum((r) => r.succeeded);
  const buckets = DURATION_BUCKETS_MS.map((_, i) => sum((r) => r.buckets[i]!));
  let seen = 0;
  const median = succeeded === 0 ? null : DURATION_BUCKETS_MS[buckets.findIndex((n) => (seen += n) >= succeeded / 2)]!;
  return { jobs: sum((r) => r.ended), successRate: counted === 0 ? null : Math.round((succeeded / counted) * 1000) / 1000, medianDurationMs: median };
}

export const providerPulse = (env: Pick<Env, "PROVIDER_PULSES">, providerCode: string) => env.PROVIDER_PULSES.getByName(providerCode);
