import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { DURATION_BUCKETS_MS, type ProviderPulse, providerPulse } from "../../../../worker/domain/catalog/provider-pulse";

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

type MinuteRow = { minute: number; ended: number; counted: number; succeeded: number; buckets: number[] };

/** The pulse's minute rows as stored, oldest first, buckets parsed. */
const minutes = (pulse: DurableObjectStub<ProviderPulse>) =>
  runInDurableObject(pulse, (_pulse: ProviderPulse, state) =>
    state.storage.sql
      .exec<{ minute: number; ended: number; counted: number; succeeded: number; buckets: string }>("SELECT * FROM minutes ORDER BY minute")
      .toArray()
      .map((row): MinuteRow => ({ ...row, buckets: JSON.parse(row.buckets) as number[] })),
  );

/** Bucket counts with `n` in each given index. */
const buckets = (counts: Record<number, number>) => DURATION_BUCKETS_MS.map((_, i) => counts[i] ?? 0);

const pulseOfItsOwn = () => providerPulse(env, `test.${crypto.randomUUID().slice(0, 8)}`);

describe("ProviderPulse", () => {
  it("keeps one row per minute: every end counted, the user's side's failures out of the rate, successes in their duration bucket", async () => {
    const pulse = pulseOfItsOwn();
    const minute = Math.floor(Date.now() / MINUTE) - 3;
    const at = minute * MINUTE + 1_000;
    // On a bucket's bound it falls in that bucket; past the last bound, in the last.
    await pulse.record({ ok: true, durationMs: 2_000, at });
    await pulse.record({ ok: true, durationMs: 2_001, at: at + 10_000 });
    await pulse.record({ ok: true, durationMs: 5 * 3_600_000, at: at + 20_000 });
    // A failure counts in the rate but has no duration bucket; a wrong password counts only as an end.
    await pulse.record({ ok: false, durationMs: 1_000, at: at + 30_000 });
    await pulse.record({ ok: null, durationMs: 1_000, at: at + 40_000 });
    // The next minute starts a row of its own.
    await pulse.record({ ok: true, durationMs: 7_000, at: (minute + 1) * MINUTE });

    const last = DURATION_BUCKETS_MS.length - 1;
    expect(await minutes(pulse)).toEqual([
      { minute, ended: 5, counted: 4, succeeded: 3, buckets: buckets({ 0: 1, 1: 1, [last]: 1 }) },
      { minute: minute + 1, ended: 1, counted: 1, succeeded: 1, buckets: buckets({ 2: 1 }) },
    ]);
    expect((await pulse.summary(at + 2 * MINUTE)).lastHour).toEqual({ jobs: 6, successRate: 0.8, medianDurationMs: 5_000 });
  });

  it("drops rows more than a day older than the minute it records", async () => {
    const pulse = pulseOfItsOwn();
    const now = Math.floor(Date.now() / MINUTE) * MINUTE;
    const minute = now / MINUTE;
    await pulse.record({ ok: true, durationMs: 1_000, at: now - DAY - MINUTE });
    await pulse.record({ ok: false, durationMs: 1_000, at: now - DAY });
    expect((await minutes(pulse)).map((r) => r.minute)).toEqual([minute - 1441, minute - 1440]);
    await pulse.record({ ok: true, durationMs: 1_000, at: now });
    // Exactly a day before stays (the summary no longer reads it); a minute more goes.
    expect((await minutes(pulse)).map((r) => r.minute)).toEqual([minute - 1440, minute]);
    expect((await pulse.summary(now)).lastDay.jobs).toBe(1);
  });
});
