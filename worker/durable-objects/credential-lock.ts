import { DurableObject } from "cloudflare:workers";

export type AcquireResult =
  | { granted: true; leaseUntil: number; scraperSessionId: string | null }
  | { granted: false; heldBy: string; leaseUntil: number };

interface Lease {
  job_id: string;
  lease_until: number;
  scraper_session_id: string | null;
}

/**
 * One per credential: the lease that keeps two jobs from driving the same
 * institution login at once. The holder also parks its scraper session id
 * here, so every unit of a job reuses one browser login.
 */
export class CredentialLock extends DurableObject {
  constructor(ctx: DurableObjectState, env: unknown) {
    super(ctx, env as never);
    ctx.storage.sql.exec(
      "CREATE TABLE IF NOT EXISTS lease (id INTEGER PRIMARY KEY CHECK (id = 1), job_id TEXT NOT NULL, lease_until INTEGER NOT NULL, scraper_session_id TEXT)",
    );
  }

  private current(now: number): Lease | null {
    const row = this.ctx.storage.sql.exec<Lease & Record<string, SqlStorageValue>>("SELECT job_id, lease_until, scraper_session_id FROM lease").toArray()[0];
    return row && row.lease_until > now ? row : null;
  }

  /** Takes or extends the lease for a job; another live holder wins. */
  async acquire(jobId: string, leaseMs: number, now: number = Date.now()): Promise<AcquireResult> {
    const held = this.current(now);
    if (held && held.job_id !== jobId) return { granted: false, heldBy: held.job_id, leaseUntil: held.lease_until };
    const leaseUntil = now + leaseMs;
    const session = held ? held.scraper_session_id : null;
    this.ctx.storage.sql.exec(
      "INSERT INTO lease (id, job_id, lease_until, scraper_session_id) VALUES (1, ?, ?, ?) ON CONFLICT(id) DO UPDATE SET job_id = excluded.job_id, lease_until = excluded.lease_until, scraper_session_id = excluded.scraper_session_id",
      jobId,
      leaseUntil,
      session,
    );
    await this.ctx.storage.setAlarm(leaseUntil);
    return { granted: true, leaseUntil, scraperSessionId: session };
  }

  /** True while the job still holds an unexpired lease: a unit checks this before committing. */
  holds(jobId: string, now: number = Date.now()): boolean {
    return this.current(now)?.job_id === jobId;
  }

  rememberSession(jobId: string, scraperSessionId: string | null): boolean {
    const cursor = this.ctx.storage.sql.exec("UPDATE lease SET scraper_session_id = ? WHERE job_id = ?", scraperSessionId, jobId);
    return cursor.rowsWritten > 0;
  }

  /** Drops the job's scraper session (the institution ended it) but keeps the lease; returns the dropped id. */
  forgetSession(jobId: string): string | null {
    const row = this.ctx.storage.sql.exec<{ scraper_session_id: string | null }>("SELECT scraper_session_id FROM lease WHERE job_id = ?", jobId).toArray()[0];
    if (!row) return null;
    this.ctx.storage.sql.exec("UPDATE lease SET scraper_session_id = NULL WHERE job_id = ?", jobId);
    return row.scraper_session_id;
  }

  /** Ends the job's lease; returns the scraper session it held so the caller can close it. */
  release(jobId: string): string | null {
    const row = this.ctx.storage.sql.exec<Lease & Record<string, SqlStorageValue>>("SELECT job_id, lease_until, scraper_session_id FROM lease WHERE job_id = ?", jobId).toArray()[0];
    if (!row) return null;
    this.ctx.storage.sql.exec("DELETE FROM lease WHERE job_id = ?", jobId);
    return row.scraper_session_id;
  }

  /** Clears an expired lease so its storage does not linger. */
  override async alarm(): Promise<void> {
    const now = Date.now();
    const row = this.ctx.storage.sql.exec<{ lease_until: number }>("SELECT lease_until FROM lease").toArray()[0];
    if (!row) return;
    if (row.lease_until <= now) this.ctx.storage.sql.exec("DELETE FROM lease");
    else await this.ctx.storage.setAlarm(row.lease_until);
  }
}
