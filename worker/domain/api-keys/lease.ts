/**
 * The arithmetic of a request gate's windows and of the leases it grants (request-gate.ts), apart from storage so a
 * property test can drive it (test/node/worker/lease-arithmetic.test.ts). A lease is a batch of a key's requests counted in
 * the gate's windows when it is granted and then spent by one isolate without asking again (key-leases.ts), so however
 * many isolates hold leases, no window ever admits more than its limit.
 */

export const MINUTE = 60_000;
export const HOUR = 3_600_000;
/** How long an isolate may spend a lease: a revocation, a suspension or an expiry reaches every isolate within it. */
export const LEASE_MS = 5_000;
/** One lease holds at most a tenth of a minute's limit, so a few isolates sitting on unused leases leave room for others. */
const LEASE_SHARE = 10;

/** A window as the gate stores it: when it started and how many requests it counted. */
export interface Count {
  startedAt: number;
  count: number;
}

export interface Limits {
  minute: number;
  hour: number;
}

/** What an isolate asks for: a lease of `wanted` requests, handing back what it did not spend of its last one. */
export interface LeaseAsk {
  wanted: number;
  unused?: { windowStart: number; count: number };
}

export interface Lease {
  /** Requests counted for the isolate; 0 when refused. */
  granted: number;
  /** The minute window they were counted in: a lease is never spent, nor handed back, in another. */
  windowStart: number;
  /** When the isolate stops spending it: LEASE_MS on, never past its window's end. */
  expiresAt: number;
}

export interface Granted {
  minute: Count;
  hour: Count;
  lease: Lease;
  /** Requests left in the tighter window once the lease was counted. */
  remaining: number;
  /** Seconds until the blocking window resets when refused; 0 when granted. */
  retryAfterSeconds: number;
}

/** The window of `size` that holds `now`, with the stored count if it is that window's. */
export function currentWindow(stored: Count | undefined, size: number, now: number): Count {
  const startedAt = now - (now % size);
  return { startedAt, count: stored && stored.startedAt === startedAt ? stored.count : 0 };
}

/**
 * Takes back what an isolate did not spend of a lease (only within the window it was counted in: the hour holds the
 * minute, so the same minute means the same hour), then counts a new lease: at least one request, at most the room
 * left, a tenth of the minute's limit and half of what is left, so the last requests of a window are shared out.
 */
export function grantLease(stored: { minute?: Count; hour?: Count }, limits: Limits, ask: LeaseAsk, now: number): Granted {
  const minute = currentWindow(stored.minute, MINUTE, now);
  const hour = currentWindow(stored.hour, HOUR, now);
  if (ask.unused && ask.unused.windowStart === minute.startedAt) {
    const back = Math.max(0, Math.min(ask.unused.count, minute.count, hour.count));
    minute.count -= back;
    hour.count -= back;
  }
  const room = Math.min(limits.minute - minute.count, limits.hour - hour.count);
  if (room <= 0) {
    const resetAt = Math.max(...[[minute, MINUTE, limits.minute] as const, [hour, HOUR, limits.hour] as const].filter(([w, , limit]) => w.count >= limit).map(([w, size]) => w.startedAt + size));
    const lease = { granted: 0, windowStart: minute.startedAt, expiresAt: now };
    return { minute, hour, lease, remaining: 0, retryAfterSeconds: Math.max(1, Math.ceil((resetAt - now) / 1000)) };
  }
  const granted = Math.max(1, Math.min(Math.floor(ask.wanted), Math.floor(limits.minute / LEASE_SHARE), Math.ceil(room / 2)));
  minute.count += granted;
  hour.count += granted;
  const lease = { granted, windowStart: minute.startedAt, expiresAt: Math.min(now + LEASE_MS, minute.startedAt + MINUTE) };
  return { minute, hour, lease, remaining: room - granted, retryAfterSeconds: 0 };
}

/**
 * How many requests to ask for next: what the isolate spent over its last lease's life, scaled to a lease's length,
 * so a busy isolate asks once a lease and a quiet one holds no more than it uses. One for a key it has not served.
 */
export function wantedFor(last: { spent: number; takenAt: number } | undefined, now: number): number {
  if (!last) return 1;
  return Math.max(1, Math.ceil((last.spent * LEASE_MS) / Math.max(1, now - last.takenAt)));
}
