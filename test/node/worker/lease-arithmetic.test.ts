import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type Count, grantLease, HOUR, LEASE_MS, type LeaseAsk, MINUTE, wantedFor } from "../../../worker/domain/api-keys/lease";

interface Isolate {
  left: number;
  windowStart: number;
  expiresAt: number;
  spent: number;
  takenAt: number;
}

/**
 * Drives one gate's arithmetic with isolates that ask for leases, spend them, let them expire and hand back what they
 * did not spend, in any order and at any times, as key-leases.ts does: the gate's counts are only ever what
 * grantLease returns. Answers the requests admitted per minute and per hour window, and the most a minute counted
 * without spending.
 */
function run(limits: { minute: number; hour: number }, isolates: number, steps: { isolate: number; advanceMs: number; action: "spend" | "ask" }[]) {
  let stored: { minute?: Count; hour?: Count } = {};
  const held: (Isolate | null)[] = Array.from({ length: isolates }, () => null);
  const perMinute = new Map<number, number>();
  const perHour = new Map<number, number>();
  let now = Date.UTC(2026, 10, 27, 9, 59, 0);
  let mostUnspent = 0;
  for (const step of steps) {
    now += step.advanceMs;
    const lease = held[step.isolate];
    const live = lease && now < lease.expiresAt;
    if (step.action === "spend" && live && lease.left > 0) {
      lease.left--;
      lease.spent++;
      const minute = now - (now % MINUTE);
      // A lease is spent only in the window it was counted in.
      expect(minute).toBe(lease.windowStart);
      perMinute.set(minute, (perMinute.get(minute) ?? 0) + 1);
      perHour.set(now - (now % HOUR), (perHour.get(now - (now % HOUR)) ?? 0) + 1);
      continue;
    }
    // key-leases.ts asks while a lease lives only once half of it is spent.
    if (step.action !== "ask" || (live && lease.left > lease.spent)) continue;
    const ask: LeaseAsk = { wanted: wantedFor(lease ?? undefined, now) };
    if (lease && !live && lease.left > 0) ask.unused = { windowStart: lease.windowStart, count: lease.left };
    const granted = grantLease(stored, limits, ask, now);
    stored = { minute: granted.minute, hour: granted.hour };
    expect(granted.minute.count).toBeLessThanOrEqual(limits.minute);
    expect(granted.hour.count).toBeLessThanOrEqual(limits.hour);
    if (granted.lease.granted === 0) {
      if (lease && !live) held[step.isolate] = null;
      continue;
    }
    const carried = lease && live && lease.windowStart === granted.lease.windowStart ? lease.left : 0;
    held[step.isolate] = { left: carried + granted.lease.granted, windowStart: granted.lease.windowStart, expiresAt: granted.lease.expiresAt, spent: 0, takenAt: now };
    const unspent = held.reduce((sum, h) => sum + (h && h.windowStart === granted.lease.windowStart && now < h.expiresAt ? h.left : 0), 0);
    mostUnspent = Math.max(mostUnspent, unspent);
  }
  return { perMinute, perHour, mostUnspent };
}

const steps = (isolates: number) =>
  fc.array(
    fc.record({
      isolate: fc.integer({ min: 0, max: isolates - 1 }),
      advanceMs: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 200 }), fc.integer({ min: 0, max: 2 * LEASE_MS }), fc.integer({ min: 0, max: 2 * MINUTE })),
      action: fc.constantFrom<"spend" | "ask">("spend", "spend", "spend", "ask"),
    }),
    { maxLength: 600 },
  );

describe("the lease arithmetic of a request gate", () => {
  it("never admits more than a window's limit across any number of isolates, whatever the timing, and never spends a lease outside its window", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 8 }).chain((isolates) => fc.tuple(fc.constant(isolates), fc.integer({ min: 1, max: 150 }), fc.integer({ min: 1, max: 600 }), steps(isolates))), ([isolates, minute, hour, plan]) => {
        const limits = { minute, hour };
        const { perMinute, perHour, mostUnspent } = run(limits, isolates, plan);
        for (const count of perMinute.values()) expect(count).toBeLessThanOrEqual(minute);
        for (const count of perHour.values()) expect(count).toBeLessThanOrEqual(hour);
        // What leases may leave unused in a minute: at most two leases (a tenth of its limit each, at least one) per
        // isolate, since the next lease is asked for once half of one is spent and the rest joins it.
        expect(mostUnspent).toBeLessThanOrEqual(isolates * 2 * Math.max(1, Math.floor(minute / 10)));
      }),
      { numRuns: 300 },
    );
  });

  it("admits exactly the limit to one isolate that asks whenever it runs out, as one request at a time did", () => {
    const limits = { minute: 100, hour: 5000 };
    const plan = Array.from({ length: 400 }, () => [{ isolate: 0, advanceMs: 1, action: "spend" as const }, { isolate: 0, advanceMs: 0, action: "ask" as const }]).flat();
    const { perMinute } = run(limits, 1, plan);
    expect([...perMinute.values()]).toEqual([100]);
  });

  it("takes back what an expired lease did not spend, in its own window only", () => {
    const limits = { minute: 100, hour: 5000 };
    const start = Date.UTC(2026, 10, 27, 10, 0, 0);
    const first = grantLease({}, limits, { wanted: 10 }, start);
    expect(first.lease).toEqual({ granted: 10, windowStart: start, expiresAt: start + LEASE_MS });
    expect(first.remaining).toBe(90);
    const back = grantLease({ minute: first.minute, hour: first.hour }, limits, { wanted: 1, unused: { windowStart: start, count: 7 } }, start + LEASE_MS);
    expect(back.minute.count).toBe(4);
    expect(back.hour.count).toBe(4);
    // A lease of the last minute hands back nothing into this one, where another isolate has counted ten.
    const other = grantLease({ minute: back.minute, hour: back.hour }, limits, { wanted: 10 }, start + MINUTE);
    const late = grantLease({ minute: other.minute, hour: other.hour }, limits, { wanted: 1, unused: { windowStart: start, count: 7 } }, start + MINUTE + 1);
    expect(late.minute).toEqual({ startedAt: start + MINUTE, count: 11 });
    expect(late.hour.count).toBe(15);
  });

  it("sizes a lease to what the isolate spent over the last one's life", () => {
    expect(wantedFor(undefined, 0)).toBe(1);
    expect(wantedFor({ spent: 10, takenAt: 0 }, 1_000)).toBe(50);
    expect(wantedFor({ spent: 1, takenAt: 0 }, 60_000)).toBe(1);
  });
});
