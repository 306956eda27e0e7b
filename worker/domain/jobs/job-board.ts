import { DurableObject } from "cloudflare:workers";
import type { JobRow } from "./store";

const KEEP_MS = 24 * 3_600_000;

/**
 * One per workspace: the latest known row of each of its jobs, a read model
 * in front of D1 (the source of truth) for the polling hot path. Writers
 * publish after each D1 transition; readers fall back to D1 when an entry
 * may be stale (see domain/jobs/board.ts).
 */
export class JobBoard extends DurableObject<Pick<Env, never>> {
  constructor(ctx: DurableObjectState, env: Pick<Env, never>) {
    super(ctx, env);
    ctx.storage.sql.exec("CREATE TABLE IF NOT EXISTS rows (id TEXT PRIMARY KEY, row TEXT NOT NULL, cached_at INTEGER NOT NULL)");
  }

  /** The entry as stored, its row still JSON: the caller parses it once, and the RPC carries one string, not an object to clone. */
  get(id: string): { row: string; cachedAt: number } | null {
    const found = this.ctx.storage.sql.exec<{ row: string; cached_at: number }>("SELECT row, cached_at FROM rows WHERE id = ?", id).toArray()[0];
    return found ? { row: found.row, cachedAt: found.cached_at } : null;
  }

  /** Keeps the newer of what is stored and `row`, so publishes arriving out of order cannot roll a job back. */
  async put(row: JobRow, now: number = Date.now()): Promise<void> {
    this.ctx.storage.sql.exec(
      `INSERT INTO rows (id, row, cached_at) VALUES (?1, ?2, ?3)
       ON CONFLICT(id) DO UPDATE SET row = excluded.row, cached_at = excluded.cached_at
       WHERE json_extract(rows.row, '$.updatedAt') <= json_extract(excluded.row, '$.updatedAt')`,
      row.id,
      JSON.stringify(row),
      now,
    );
    if ((await this.ctx.storage.getAlarm()) === null) await this.ctx.storage.setAlarm(now + KEEP_MS);
  }

  /** Forgets rows not published or refreshed from D1 for a day (reads do not refresh them); D1 still has them. */
  override async alarm(): Promise<void> {
    const now = Date.now();
    this.ctx.storage.sql.exec("DELETE FROM rows WHERE cached_at < ?", now - KEEP_MS);
    const left = this.ctx.storage.sql.exec<{ n: number }>("SELECT count(*) AS n FROM rows").one().n;
    if (left > 0) await this.ctx.storage.setAlarm(now + KEEP_MS);
  }
}

/** The board of one workspace. */
export const jobBoard = (env: Pick<Env, "JOB_BOARD">, workspaceId: string) => env.JOB_BOARD.getByName(workspaceId);
