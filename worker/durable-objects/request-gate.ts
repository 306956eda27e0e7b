import { DurableObject } from "cloudflare:workers";
import type { KeyRights } from "../api-keys/rights";
import { type ApiKeyRow, findKeyByHash } from "../api-keys/store";
import type { Bindings } from "../env";
import { timingSafeEqualHex } from "../lib/crypto";
import { findWorkspace } from "../workspaces/store";

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
/** How long a resolved key is trusted without asking D1 again; a revocation does not wait for it (see `revoke()`). */
const KEY_CACHE_MS = 60_000;

type KeyRecord = Pick<ApiKeyRow, "id" | "workspaceId" | "hash" | "expiresAt" | "revokedAt" | "canManageKeys"> & { isPartner: boolean };

export type KeyAdmission =
  | { key: { id: string; workspaceId: string; isPartner: boolean; rights: KeyRights }; decision: RateDecision }
  | { failure: "INVALID_TOKEN" | "TOKEN_EXPIRED" };

type GateEnv = Pick<Bindings, "DB" | "RATE_LIMIT_PER_MINUTE" | "RATE_LIMIT_PER_HOUR">;

/**
 * Admits requests of one API key (named by the key's hash) or one client
 * address: resolves the key and counts the request against fixed minute
 * and hour windows, so an authenticated request costs one call here and no
 * D1 read. A Durable Object handles one call at a time, so the
 * check-and-increment is exact under any concurrency.
 */
export class RequestGate extends DurableObject<GateEnv> {
  private readonly limitMinute: number;
  private readonly limitHour: number;
  private key: { record: KeyRecord | null; loadedAt: number } | null = null;
  /** Set by `revoke()` and kept in storage: a key once revoked here is refused whatever D1 said when last read. */
  private revoked: boolean;

  constructor(ctx: DurableObjectState, env: GateEnv) {
    super(ctx, env);
    // Overridable only so local load benchmarks can run past the spec's limits; production uses the defaults.
    this.limitMinute = Number(env.RATE_LIMIT_PER_MINUTE || LIMIT_PER_MINUTE);
    this.limitHour = Number(env.RATE_LIMIT_PER_HOUR || LIMIT_PER_HOUR);
    ctx.storage.sql.exec(
      "CREATE TABLE IF NOT EXISTS windows (size INTEGER PRIMARY KEY, started_at INTEGER NOT NULL, count INTEGER NOT NULL)",
    );
    ctx.storage.sql.exec("CREATE TABLE IF NOT EXISTS revocation (id INTEGER PRIMARY KEY CHECK (id = 1), revoked_at INTEGER NOT NULL)");
    this.revoked = ctx.storage.sql.exec("SELECT 1 FROM revocation").toArray().length > 0;
  }

  /** Resolves the key this object is named for and, if it is usable, counts the request against it. */
  async admitKey(hash: string, now: number = Date.now()): Promise<KeyAdmission> {
    if (!this.key || now - this.key.loadedAt > KEY_CACHE_MS) {
      const key = await findKeyByHash(this.env.DB, hash);
      const workspace = key ? await findWorkspace(this.env.DB, key.workspaceId) : null;
      this.key = { record: key && workspace ? { ...key, isPartner: workspace.isPartner } : null, loadedAt: now };
    }
    const record = this.key.record;
    // Checked after the load: a revocation that arrived while D1 was being read wins over what the read saw.
    if (this.revoked || !record || record.revokedAt !== null || !timingSafeEqualHex(record.hash, hash)) return { failure: "INVALID_TOKEN" };
    if (record.expiresAt !== null && record.expiresAt <= now) return { failure: "TOKEN_EXPIRED" };
    const rights = { canManageKeys: record.canManageKeys, expiresAt: record.expiresAt };
    return { key: { id: record.id, workspaceId: record.workspaceId, isPartner: record.isPartner, rights }, decision: this.hit(now) };
  }

  /**
   * Revokes the key for good, after D1 recorded it: the next admission is
   * refused, and so is one whose D1 read was in flight (and may have seen
   * the key still live), because the mark is checked after every load and
   * outlives the in-memory cache.
   */
  revoke(now: number = Date.now()): void {
    this.ctx.storage.sql.exec("INSERT OR IGNORE INTO revocation (id, revoked_at) VALUES (1, ?)", now);
    this.revoked = true;
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

/** The gate of one API key, named by the key's hash: all we store of a key. */
export const keyGate = (env: Pick<Bindings, "REQUEST_GATES">, keyHash: string) => env.REQUEST_GATES.getByName(`key:${keyHash}`);

/** The gate of one client address, for requests without a usable key. */
export const addressGate = (env: Pick<Bindings, "REQUEST_GATES">, address: string) => env.REQUEST_GATES.getByName(`ip:${address}`);
