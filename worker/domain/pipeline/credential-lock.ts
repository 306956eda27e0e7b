import { DurableObject } from "cloudflare:workers";
import { sha256Hex } from "../../platform/lib/crypto";

export type LeaseGrant = {
  granted: true;
  /** Increases with every grant on this credential: a D1 commit carries it, so a lapsed holder cannot commit. */
  fence: number;
  leaseUntil: number;
  /** The job's own scraper session from an earlier grant, so one login serves the whole job. */
  scraperSessionId: string | null;
  /** A session left by another job whose lease lapsed: the new holder closes it, since its login is being replaced. */
  supersededSessionId: string | null;
};

/** `busy`: a delivery of the same job holds the lease right now (a duplicate, or one that crashed before parking). */
export type LeaseRefusal = { granted: false; heldBy: string; leaseUntil: number; busy: boolean };

export type AcquireResult = LeaseGrant | LeaseRefusal;

/** What a job starting on the credential says of itself to take its place in line. */
export interface LineTicket {
  /** Equal for two jobs asking for the same collection: the second is refused rather than queued. */
  requestKey: string;
  /** The job's deadline: a place it could not reach in time is refused. */
  deadlineAt: number;
}

/**
 * A job that must wait: `waiting` with the jobs ahead of it (the running one included) and when to ask again
 * unless woken first; `identical` when the same collection is already running or waiting; `overBudget` when the
 * jobs ahead would take longer than its deadline allows.
 */
export type LineRefusal =
  | (LeaseRefusal & { line: "waiting"; position: number; askAgainMs: number })
  | (LeaseRefusal & { line: "identical" | "overBudget" });

/** What ending a job's lease leaves: a session to close, or the next job it was handed to, and the line behind. */
export interface Released {
  closeSessionId: string | null;
  handedTo: string | null;
  /** The jobs still waiting, in order: each one's place is its index + 1 (the job handed the lease is ahead). */
  waiting: string[];
}

/** How often one credential's login may ring its holder's phone: a few jobs an hour, never a stream of requests. */
export const HOLDER_ASKS_PER_HOUR = 5;
const HOUR_MS = 3_600_000;

// Until the credential has a history, a job is expected to hold it this long.
const FIRST_HOLD_ESTIMATE_MS = 30_000;
// A waiting job that is not woken asks again within these bounds, in case its wake-up was lost.
const MIN_ASK_AGAIN_MS = 5_000;
const MAX_ASK_AGAIN_MS = 60_000;

interface LineEntry {
  job_id: string;
  seq: number;
  request_key: string;
  deadline_at: number;
  granted_at: number | null;
}

interface Lease {
  job_id: string;
  fence: number;
  lease_until: number;
  /** 1 while a delivery works under the lease; 0 once it parked it between deliveries of the job. */
  active: number;
  scraper_session_id: string | null;
}

/**
 * One per credential: the lease that keeps two jobs, or two deliveries of
 * one job, from driving the same institution login at once, and the line of
 * jobs waiting for it (docs/scheduling.md). A job keeps the lease parked
 * between its deliveries, with its scraper session, until the term runs out.
 * An expired lease row stays until the next grant, which hands its session
 * over for closing; a line entry past its job's deadline goes at the next
 * call. With the fence counter, the hold estimate and a login kept for the
 * next job (`kept_session`, taken or closed by the next grant) that is all the
 * storage an object keeps, each bounded, so no alarm clears it.
 */
export class CredentialLock extends DurableObject<Pick<Env, never>> {
  constructor(ctx: DurableObjectState, env: Pick<Env, never>) {
    super(ctx, env);
    ctx.storage.sql.exec(`
      CREATE TABLE IF NOT EXISTS lease (id INTEGER PRIMARY KEY CHECK (id = 1), job_id TEXT NOT NULL, fence INTEGER NOT NULL,
        lease_until INTEGER NOT NULL, active INTEGER NOT NULL, scraper_session_id TEXT);
      CREATE TABLE IF NOT EXISTS last_fence (id INTEGER PRIMARY KEY CHECK (id = 1), fence INTEGER NOT NULL);
      CREATE TABLE IF NOT EXISTS line (job_id TEXT PRIMARY KEY, seq INTEGER NOT NULL, request_key TEXT NOT NULL,
        deadline_at INTEGER NOT NULL, granted_at INTEGER);
      CREATE TABLE IF NOT EXISTS hold_estimate (id INTEGER PRIMARY KEY CHECK (id = 1), ms INTEGER NOT NULL);
      CREATE TABLE IF NOT EXISTS session_keep (id INTEGER PRIMARY KEY CHECK (id = 1), session_id TEXT NOT NULL, keep_ms INTEGER NOT NULL);
      CREATE TABLE IF NOT EXISTS kept_session (id INTEGER PRIMARY KEY CHECK (id = 1), session_id TEXT NOT NULL, until INTEGER NOT NULL);
      CREATE TABLE IF NOT EXISTS holder_asks (at INTEGER NOT NULL);`);
  }

  private lineEntries(now: number): LineEntry[] {
    // A job past its deadline is failed by the sweep; it holds no place meanwhile.
    this.ctx.storage.sql.exec("DELETE FROM line WHERE deadline_at <= ?", now);
    return this.ctx.storage.sql.exec<LineEntry & Record<string, SqlStorageValue>>("SELECT job_id, seq, request_key, deadline_at, granted_at FROM line ORDER BY seq").toArray();
  }

  private holdEstimateMs(): number {
    return this.ctx.storage.sql.exec<{ ms: number }>("SELECT ms FROM hold_estimate").toArray()[0]?.ms ?? FIRST_HOLD_ESTIMATE_MS;
  }

  /**
   * A job starting on the credential: the lease when it is free, else a place in line behind the jobs that came
   * first, as long as they leave it time to run before its deadline. Jobs leave the line when they end
   * (`release`), which hands the lease, with its logged-in session, to the first of those still waiting.
   */
  acquireOrQueue(jobId: string, leaseMs: number, ticket: LineTicket, now: number = Date.now()): LeaseGrant | LineRefusal {
    const entries = this.lineEntries(now);
    let own = entries.find((e) => e.job_id === jobId);
    if (!own) {
      const twin = entries.find((e) => e.request_key === ticket.requestKey);
      const lease = this.stored();
      if (twin) return { granted: false, heldBy: twin.job_id, leaseUntil: lease?.lease_until ?? now, busy: false, line: "identical" };
      own = { job_id: jobId, seq: (entries.at(-1)?.seq ?? 0) + 1, request_key: ticket.requestKey, deadline_at: ticket.deadlineAt, granted_at: null };
      this.ctx.storage.sql.exec("INSERT INTO line (job_id, seq, request_key, deadline_at) VALUES (?, ?, ?, ?)", jobId, own.seq, own.request_key, own.deadline_at);
    }
    const result = this.acquire(jobId, leaseMs, now);
    if (result.granted) {
      this.ctx.storage.sql.exec("UPDATE line SET granted_at = coalesce(granted_at, ?) WHERE job_id = ?", now, jobId);
      return result;
    }
    if (result.busy) return { ...result, line: "waiting", position: 0, askAgainMs: Math.max(MIN_ASK_AGAIN_MS, result.leaseUntil - now) };
    // The holder, then those that came first.
    const position = 1 + entries.filter((e) => e.seq < own.seq && e.job_id !== result.heldBy).length;
    const estimate = this.holdEstimateMs();
    if (now + (position + 1) * estimate > own.deadline_at) {
      this.ctx.storage.sql.exec("DELETE FROM line WHERE job_id = ?", jobId);
      return { ...result, line: "overBudget" };
    }
    return { ...result, line: "waiting", position, askAgainMs: Math.min(MAX_ASK_AGAIN_MS, Math.max(MIN_ASK_AGAIN_MS, position * estimate)) };
  }

  private stored(): Lease | null {
    return this.ctx.storage.sql.exec<Lease & Record<string, SqlStorageValue>>("SELECT job_id, fence, lease_until, active, scraper_session_id FROM lease").toArray()[0] ?? null;
  }

  /** The lease a delivery currently holds under `fence`, if it has not run out. */
  private held(fence: number, now: number): Lease | null {
    const lease = this.stored();
    return lease && lease.fence === fence && lease.active === 1 && lease.lease_until > now ? lease : null;
  }

  /** Grants the lease to a delivery of `jobId` unless another job, or another delivery of this job, holds it. */
  acquire(jobId: string, leaseMs: number, now: number = Date.now()): AcquireResult {
    const lease = this.stored();
    const live = lease && lease.lease_until > now ? lease : null;
    if (live && (live.job_id !== jobId || live.active === 1)) {
      return { granted: false, heldBy: live.job_id, leaseUntil: live.lease_until, busy: live.job_id === jobId };
    }
    let ownSession = lease?.job_id === jobId ? lease.scraper_session_id : null;
    let superseded = lease && lease.job_id !== jobId ? lease.scraper_session_id : null;
    // A login kept after its last job (one its holder approved on a phone): the next job of the credential takes it
    // while it lives, else closes it.
    const kept = this.ctx.storage.sql.exec<{ session_id: string; until: number }>("DELETE FROM kept_session RETURNING session_id, until").toArray()[0];
    if (kept && !ownSession && !superseded && kept.until > now) ownSession = kept.session_id;
    else if (kept) superseded ??= kept.session_id;
    const fence = this.ctx.storage.transactionSync(() => {
      const next = (this.ctx.storage.sql.exec<{ fence: number }>("SELECT fence FROM last_fence").toArray()[0]?.fence ?? 0) + 1;
      this.ctx.storage.sql.exec("INSERT INTO last_fence (id, fence) VALUES (1, ?) ON CONFLICT(id) DO UPDATE SET fence = excluded.fence", next);
      this.ctx.storage.sql.exec(
        `INSERT INTO lease (id, job_id, fence, lease_until, active, scraper_session_id) VALUES (1, ?, ?, ?, 1, ?)
         ON CONFLICT(id) DO UPDATE SET job_id = excluded.job_id, fence = excluded.fence, lease_until = excluded.lease_until,
           active = 1, scraper_session_id = excluded.scraper_session_id`,
        jobId,
        next,
        now + leaseMs,
        ownSession,
      );
      return next;
    });
    return { granted: true, fence, leaseUntil: now + leaseMs, scraperSessionId: ownSession, supersededSessionId: superseded };
  }

  /**
   * Counts a request to the holder's phone (a 간편인증 login) against HOLDER_ASKS_PER_HOUR: 0 when it may ring now,
   * else how long until it may. Whoever holds the credential (a partner's jobs, a schedule, someone who registered
   * another person's name and number) cannot make that person's phone ring more often than this.
   */
  holderAsk(now: number = Date.now()): number {
    this.ctx.storage.sql.exec("DELETE FROM holder_asks WHERE at <= ?", now - HOUR_MS);
    const asks = this.ctx.storage.sql.exec<{ at: number }>("SELECT at FROM holder_asks ORDER BY at").toArray();
    if (asks.length >= HOLDER_ASKS_PER_HOUR) return asks[0]!.at + HOUR_MS - now;
    this.ctx.storage.sql.exec("INSERT INTO holder_asks (at) VALUES (?)", now);
    return 0;
  }

  /** Extends a held lease while its delivery works; false once it ran out or passed to another grant. */
  renew(fence: number, leaseMs: number, now: number = Date.now()): boolean {
    if (!this.held(fence, now)) return false;
    this.ctx.storage.sql.exec("UPDATE lease SET lease_until = ? WHERE fence = ?", now + leaseMs, fence);
    return true;
  }

  /** The delivery is done but the job goes on: the lease stays the job's, with its session, until its term ends. */
  park(fence: number): void {
    this.ctx.storage.sql.exec("UPDATE lease SET active = 0 WHERE fence = ?", fence);
  }

  /** True while some delivery of the job holds an unexpired lease, or the job keeps it parked. */
  holds(jobId: string, now: number = Date.now()): boolean {
    const lease = this.stored();
    return lease !== null && lease.job_id === jobId && lease.lease_until > now;
  }

  /**
   * The session a delivery logged in with, kept with the lease. With `keepMs`, the login outlives the job: released
   * with nobody waiting, it is kept that long for the credential's next job (a login its holder approved on a phone,
   * which the institution keeps for a while and a new one would ring the phone again).
   */
  rememberSession(fence: number, scraperSessionId: string, keepMs = 0, now: number = Date.now()): boolean {
    if (!this.held(fence, now)) return false;
    this.ctx.storage.sql.exec("UPDATE lease SET scraper_session_id = ? WHERE fence = ?", scraperSessionId, fence);
    if (keepMs > 0) {
      this.ctx.storage.sql.exec(
        "INSERT INTO session_keep (id, session_id, keep_ms) VALUES (1, ?, ?) ON CONFLICT(id) DO UPDATE SET session_id = excluded.session_id, keep_ms = excluded.keep_ms",
        scraperSessionId,
        keepMs,
      );
    }
    return true;
  }

  /** Drops the job's scraper session (the institution ended it) but keeps the lease; returns the dropped id. */
  forgetSession(fence: number): string | null {
    const lease = this.stored();
    if (!lease || lease.fence !== fence) return null;
    this.ctx.storage.sql.exec("UPDATE lease SET scraper_session_id = NULL WHERE fence = ?", fence);
    return lease.scraper_session_id;
  }

  /**
   * Ends the job's lease for good (the job is over) and its place in line. The lease, with its logged-in session,
   * goes to the first job still waiting, parked for it, so that job runs without a new login while the
   * institution keeps the session; with nobody waiting the session is the caller's to close.
   */
  release(jobId: string, leaseMs: number, now: number = Date.now()): Released {
    const left = this.ctx.storage.sql.exec<{ granted_at: number | null }>("DELETE FROM line WHERE job_id = ? RETURNING granted_at", jobId).toArray()[0];
    if (left?.granted_at != null) {
      // How long jobs hold the credential, weighted to the recent ones: what a waiting job's place is worth.
      const held = now - left.granted_at;
      this.ctx.storage.sql.exec(
        "INSERT INTO hold_estimate (id, ms) VALUES (1, ?) ON CONFLICT(id) DO UPDATE SET ms = (ms * 2 + excluded.ms) / 3",
        Math.max(1, held),
      );
    }
    const lease = this.stored();
    const waiting = this.lineEntries(now).filter((e) => e.granted_at === null).map((e) => e.job_id);
    if (!lease || lease.job_id !== jobId) return { closeSessionId: null, handedTo: null, waiting };
    const [next, ...behind] = waiting;
    if (!next) {
      this.ctx.storage.sql.exec("DELETE FROM lease");
      const keep = this.ctx.storage.sql.exec<{ session_id: string; keep_ms: number }>("DELETE FROM session_keep RETURNING session_id, keep_ms").toArray()[0];
      if (lease.scraper_session_id && keep?.session_id === lease.scraper_session_id) {
        this.ctx.storage.sql.exec("INSERT INTO kept_session (id, session_id, until) VALUES (1, ?, ?) ON CONFLICT(id) DO UPDATE SET session_id = excluded.session_id, until = excluded.until", keep.session_id, now + keep.keep_ms);
        return { closeSessionId: null, handedTo: null, waiting };
      }
      return { closeSessionId: lease.scraper_session_id, handedTo: null, waiting };
    }
    this.ctx.storage.sql.exec("UPDATE lease SET job_id = ?, active = 0, lease_until = ? WHERE id = 1", next, now + leaseMs);
    return { closeSessionId: null, handedTo: next, waiting: behind };
  }
}

/** The lock of one credential. */
export const credentialLock = (env: Pick<Env, "CREDENTIAL_LOCKS">, credentialId: string) => env.CREDENTIAL_LOCKS.getByName(credentialId);

/**
 * Where one person's phone asks are counted (only its `holderAsk`), named by their number's hash: the hosted
 * registration asks the phone before any credential exists, and whoever issues sessions may name the same person in
 * as many of them, in as many workspaces, as they like.
 */
export const holderPhoneAsks = async (env: Pick<Env, "CREDENTIAL_LOCKS">, phone: string) =>
  env.CREDENTIAL_LOCKS.getByName(`holder-phone:${await sha256Hex(phone.replace(/\D/g, ""))}`);
