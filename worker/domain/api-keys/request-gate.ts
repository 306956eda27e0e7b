import { DurableObject } from "cloudflare:workers";
import type { KeyRights } from "./rights";
import { type ApiKeyRow, findKeyByHash } from "./store";
import { timingSafeEqualHex } from "../../platform/lib/timing-safe-equal";
import { sessionTokenIssued } from "../registration/sessions";
import { findWorkspace } from "../workspaces/store";
import { numberOr } from "../../platform/configuration";
import { grantLease, HOUR, type Lease, type LeaseAsk, MINUTE } from "./lease";

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

/** How long a resolved key or session token is trusted without asking D1 again; a key revocation does not wait for it (see `revoke()`). */
const KEY_CACHE_MS = 60_000;

type KeyRecord = Pick<ApiKeyRow, "id" | "workspaceId" | "hash" | "expiresAt" | "revokedAt" | "canManageKeys"> & { isPartner: boolean; suspended: boolean };

export interface AdmittedKey {
  id: string;
  workspaceId: string;
  isPartner: boolean;
  rights: KeyRights;
}

export type KeyAdmission =
  /** The lease is what the decision counted for the asker to spend (lease.ts); none when the key is over its limit. */
  | { key: AdmittedKey; decision: RateDecision; lease: Lease }
  /** The decision is the caller's address's: a request without a usable key is counted there. */
  | { failure: KeyFailure; decision: RateDecision }
  /** The caller's address was over its limit before the key was looked up. */
  | { unresolved: true; decision: RateDecision };

/** Why a key is not admitted: unknown or revoked, past its expiry, or its workspace suspended by an operator. */
export type KeyFailure = "INVALID_TOKEN" | "TOKEN_EXPIRED" | "WORKSPACE_SUSPENDED";

type GateEnv = Pick<Env, "DB" | "REQUEST_GATES" | "RATE_LIMIT_PER_MINUTE" | "RATE_LIMIT_PER_HOUR">;

/**
 * Admits requests of one API key (named by the key's hash), one registration
 * session (named by its token's hash) or one client address, counting them
 * against fixed minute and hour windows. A Durable Object handles one call
 * at a time, so the check-and-increment is exact under any concurrency.
 *
 * A gate named after a secret writes storage only once the secret resolved:
 * anyone can make up tokens, and each would otherwise leave a database behind.
 */
export class RequestGate extends DurableObject<GateEnv> {
  private readonly limitMinute: number;
  private readonly limitHour: number;
  private windowsReady = false;
  private key: { record: KeyRecord | null; loadedAt: number } | null = null;
  /** Set by `revoke()` and kept in storage: a key once revoked here is refused whatever D1 said when last read. */
  private revoked: boolean;
  /** The key lookup under way, shared by the requests that arrive meanwhile; resolves to what the caller's address was charged for it. */
  private keyLookup: Promise<RateDecision | null> | null = null;
  private session: { issued: boolean; loadedAt: number } | null = null;
  /** Counts `forget()` calls, so a D1 read begun before one is not trusted after it. */
  private generation = 0;

  constructor(ctx: DurableObjectState, env: GateEnv) {
    super(ctx, env);
    // Overridable only so local load benchmarks can run past the spec's limits; production uses the defaults.
    this.limitMinute = numberOr(env.RATE_LIMIT_PER_MINUTE, LIMIT_PER_MINUTE);
    this.limitHour = numberOr(env.RATE_LIMIT_PER_HOUR, LIMIT_PER_HOUR);
    // Reading the schema writes nothing; the revocation table exists only once `revoke()` ran.
    this.revoked = ctx.storage.sql.exec("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'revocation'").toArray().length > 0;
  }

  /**
   * Resolves the key this gate is named for and, if it is usable, counts a
   * lease of requests against it (one unless asked for more, lease.ts) and
   * takes back what the asker did not spend of its last: a known key costs
   * this one call and no D1 read.
   * Any request it cannot admit is counted against the caller's address, and
   * a key this gate has never admitted is only looked up in D1 after the
   * address had room for it, so made-up keys are stopped per address before
   * each costs a D1 read.
   */
  async admitKey(hash: string, address: string, now: number = Date.now(), ask: LeaseAsk = { wanted: 1 }): Promise<KeyAdmission> {
    let charged: RateDecision | null = null;
    while (!this.key || now - this.key.loadedAt > KEY_CACHE_MS) {
      if (this.keyLookup) {
        await this.keyLookup;
        continue;
      }
      this.keyLookup = this.lookUpKey(hash, address, now).finally(() => (this.keyLookup = null));
      charged = await this.keyLookup;
      if (charged && !charged.allowed) return { unresolved: true, decision: charged };
    }
    const record = this.key.record;
    const refuse = async (failure: KeyFailure) => ({ failure, decision: charged ?? (await addressGate(this.env, address).hit(now)) });
    // Checked after the load: a revocation that arrived while D1 was being read wins over what the read saw.
    if (this.revoked || !record || record.revokedAt !== null || !timingSafeEqualHex(record.hash, hash)) return refuse("INVALID_TOKEN");
    if (record.expiresAt !== null && record.expiresAt <= now) return refuse("TOKEN_EXPIRED");
    if (record.suspended) return refuse("WORKSPACE_SUSPENDED");
    const rights = { canManageKeys: record.canManageKeys, expiresAt: record.expiresAt };
    const { decision, lease } = this.count(ask, now);
    // A lease is not spent past the key's own expiry.
    if (record.expiresAt !== null) lease.expiresAt = Math.min(lease.expiresAt, record.expiresAt);
    return { key: { id: record.id, workspaceId: record.workspaceId, isPartner: record.isPartner, rights }, decision, lease };
  }

  /** Reads the key from D1; a key never admitted here is paid for by the caller's address first. Resolves to that charge. */
  private async lookUpKey(hash: string, address: string, now: number): Promise<RateDecision | null> {
    const charged = this.hasCounted() ? null : await addressGate(this.env, address).hit(now);
    if (charged && !charged.allowed) return charged;
    const generation = this.generation;
    const key = await findKeyByHash(this.env.DB, hash);
    const workspace = key ? await findWorkspace(this.env.DB, key.workspaceId) : null;
    if (generation !== this.generation) return charged;
    this.key = { record: key && workspace ? { ...key, isPartner: workspace.isPartner, suspended: workspace.suspendedAt !== null } : null, loadedAt: now };
    return charged;
  }

  /**
   * Revokes the key for good, after D1 recorded it: the next admission is
   * refused, and so is one whose D1 read was in flight (and may have seen
   * the key still live), because the mark is checked after every load and
   * outlives the in-memory cache.
   */
  revoke(now: number = Date.now()): void {
    this.ctx.storage.sql.exec("CREATE TABLE IF NOT EXISTS revocation (id INTEGER PRIMARY KEY CHECK (id = 1), revoked_at INTEGER NOT NULL)");
    this.ctx.storage.sql.exec("INSERT OR IGNORE INTO revocation (id, revoked_at) VALUES (1, ?)", now);
    this.revoked = true;
  }

  /** The key's workspace changed (suspended, restored): the next admission reads it again instead of trusting the cache. */
  forget(): void {
    this.key = null;
    this.generation++;
  }

  /**
   * Counts a request against the registration session this gate is named
   * for; null when no session was issued with that token (nothing counted,
   * nothing stored). Whether it was issued is trusted for a minute.
   */
  async admitSession(tokenHash: string, now: number = Date.now()): Promise<RateDecision | null> {
    if (!this.session || now - this.session.loadedAt > KEY_CACHE_MS) {
      this.session = { issued: await sessionTokenIssued(this.env.DB, tokenHash), loadedAt: now };
    }
    return this.session.issued ? this.hit(now) : null;
  }

  hit(now: number = Date.now()): RateDecision {
    return this.count({ wanted: 1 }, now).decision;
  }

  /**
   * Counts a lease of requests (lease.ts: one for a plain hit), after taking back what the asker did not spend of
   * its last one. A refusal counts nothing.
   */
  private count(ask: LeaseAsk, now: number): { decision: RateDecision; lease: Lease } {
    this.prepareWindows();
    const stored = new Map(
      this.ctx.storage.sql
        .exec<{ size: number; started_at: number; count: number }>("SELECT size, started_at, count FROM windows")
        .toArray()
        .map((row) => [row.size, { startedAt: row.started_at, count: row.count }]),
    );
    const counted = grantLease({ minute: stored.get(MINUTE), hour: stored.get(HOUR) }, { minute: this.limitMinute, hour: this.limitHour }, ask, now);
    if (counted.lease.granted > 0 || ask.unused) {
      for (const [size, w] of [[MINUTE, counted.minute], [HOUR, counted.hour]] as const) {
        this.ctx.storage.sql.exec(
          "INSERT INTO windows (size, started_at, count) VALUES (?, ?, ?) ON CONFLICT(size) DO UPDATE SET started_at = excluded.started_at, count = excluded.count",
          size,
          w.startedAt,
          w.count,
        );
      }
    }
    return { decision: this.decision(counted.lease.granted > 0, counted.remaining, counted.retryAfterSeconds), lease: counted.lease };
  }

  /** Whether this gate has ever counted a request, i.e. owns storage; asking writes nothing. */
  private hasCounted(): boolean {
    this.windowsReady ||= this.ctx.storage.sql.exec("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'windows'").toArray().length > 0;
    return this.windowsReady;
  }

  /** Created on the first count, never in the constructor: a gate that never counts stores nothing. */
  private prepareWindows(): void {
    if (this.windowsReady) return;
    this.ctx.storage.sql.exec("CREATE TABLE IF NOT EXISTS windows (size INTEGER PRIMARY KEY, started_at INTEGER NOT NULL, count INTEGER NOT NULL)");
    this.windowsReady = true;
  }

  private decision(allowed: boolean, remaining: number, retryAfterSeconds: number): RateDecision {
    return { allowed, limitMinute: this.limitMinute, limitHour: this.limitHour, remaining, retryAfterSeconds };
  }
}

/** The gate of one API key, named by the key's hash: all we store of a key. */
export const keyGate = (env: Pick<Env, "REQUEST_GATES">, keyHash: string) => env.REQUEST_GATES.getByName(`key:${keyHash}`);

/** The gate of one registration session, named by its token's hash, for the hosted UI's API. */
export const sessionGate = (env: Pick<Env, "REQUEST_GATES">, tokenHash: string) => env.REQUEST_GATES.getByName(`rst:${tokenHash}`);

/** The gate of one client address, for requests without a usable key and for the hosted UI. */
export const addressGate = (env: Pick<Env, "REQUEST_GATES">, address: string) => env.REQUEST_GATES.getByName(`ip:${address}`);
