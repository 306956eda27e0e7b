import { DurableObject } from "cloudflare:workers";
import type { Bindings } from "../env";

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
 * one job, from driving the same institution login at once. A job keeps the
 * lease parked between its deliveries, with its scraper session, until the
 * term runs out. An expired lease row stays until the next grant, which
 * hands its session over for closing; with the fence counter that is all
 * the storage an object keeps, so no alarm clears it.
 */
export class CredentialLock extends DurableObject<Pick<Bindings, never>> {
  constructor(ctx: DurableObjectState, env: Pick<Bindings, never>) {
    super(ctx, env);
    ctx.storage.sql.exec(`
      CREATE TABLE IF NOT EXISTS lease (id INTEGER PRIMARY KEY CHECK (id = 1), job_id TEXT NOT NULL, fence INTEGER NOT NULL,
        lease_until INTEGER NOT NULL, active INTEGER NOT NULL, scraper_session_id TEXT);
      CREATE TABLE IF NOT EXISTS last_fence (id INTEGER PRIMARY KEY CHECK (id = 1), fence INTEGER NOT NULL);`);
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
    const ownSession = lease?.job_id === jobId ? lease.scraper_session_id : null;
    const superseded = lease && lease.job_id !== jobId ? lease.scraper_session_id : null;
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

  rememberSession(fence: number, scraperSessionId: string, now: number = Date.now()): boolean {
    if (!this.held(fence, now)) return false;
    this.ctx.storage.sql.exec("UPDATE lease SET scraper_session_id = ? WHERE fence = ?", scraperSessionId, fence);
    return true;
  }

  /** Drops the job's scraper session (the institution ended it) but keeps the lease; returns the dropped id. */
  forgetSession(fence: number): string | null {
    const lease = this.stored();
    if (!lease || lease.fence !== fence) return null;
    this.ctx.storage.sql.exec("UPDATE lease SET scraper_session_id = NULL WHERE fence = ?", fence);
    return lease.scraper_session_id;
  }

  /** Ends the job's lease for good (the job is over); returns its scraper session so the caller can close it. */
  release(jobId: string): string | null {
    const lease = this.stored();
    if (!lease || lease.job_id !== jobId) return null;
    this.ctx.storage.sql.exec("DELETE FROM lease");
    return lease.scraper_session_id;
  }
}

/** The lock of one credential. */
export const credentialLock = (env: Pick<Bindings, "CREDENTIAL_LOCKS">, credentialId: string) => env.CREDENTIAL_LOCKS.getByName(credentialId);
