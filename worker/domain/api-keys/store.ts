import { and, count, desc, eq, gt, isNull, or } from "drizzle-orm";
import { type ListPage, pastPosition } from "../../platform/database/cursor";
import { database } from "../../platform/database/client";
import { apiKeys } from "./tables";
import { randomToken, sha256Hex } from "../../platform/lib/crypto";
import { ApiError } from "../../platform/errors/api-error";
import { PLAN_REQUEST_LOG } from "../workspaces/plans";
import { workspacePlans } from "../workspaces/store";

const KEY_PREFIX = "sk_";
const PREFIX_SHOWN = 10;

/** The first characters of a key, by which listings and the request log name it without revealing it. */
export const shownPrefix = (secret: string): string => secret.slice(0, PREFIX_SHOWN);

export type ApiKeyRow = typeof apiKeys.$inferSelect;

export interface IssuedKey {
  row: ApiKeyRow;
  /** The only time the secret exists outside the caller's hands. */
  secret: string;
}

export async function issueApiKey(
  d1: D1Database,
  input: { workspaceId: string; name: string; expiresAt?: number | null; canManageKeys?: boolean; issuedToUserId?: string; issuedByUserId?: string | null; secret?: string },
): Promise<IssuedKey> {
  const secret = input.secret ?? `${KEY_PREFIX}${randomToken(32)}`;
  const row: ApiKeyRow = {
    id: crypto.randomUUID(),
    workspaceId: input.workspaceId,
    name: input.name,
    prefix: shownPrefix(secret),
    hash: await sha256Hex(secret),
    createdAt: Date.now(),
    expiresAt: input.expiresAt ?? null,
    revokedAt: null,
    canManageKeys: input.canManageKeys ?? false,
    deviceIssued: input.issuedToUserId !== undefined,
    issuedToUserId: input.issuedToUserId ?? null,
    issuedByUserId: input.issuedByUserId ?? null,
  };
  const db = database(d1);
  await db.insert(apiKeys).values(row);
  await refuseOverLiveKeyCap(d1, row);
  return { row, secret };
}

/**
 * A workspace holds at most its plan's live keys (PLAN_REQUEST_LOG `liveApiKeys`, docs/plans.md): each key has its own
 * rate limit, so the cap is what bounds a workspace's requests, and with them its request log. Counted after the
 * insert, so keys made at the same moment cannot together pass it: the one that finds too many is taken back before
 * anyone holds it (403 ADMIN_ACTION_FORBIDDEN).
 */
async function refuseOverLiveKeyCap(d1: D1Database, row: ApiKeyRow): Promise<void> {
  const db = database(d1);
  const [[live], plans] = await Promise.all([
    db
      .select({ n: count() })
      .from(apiKeys)
      .where(and(eq(apiKeys.workspaceId, row.workspaceId), isNull(apiKeys.revokedAt), or(isNull(apiKeys.expiresAt), gt(apiKeys.expiresAt, row.createdAt)))),
    workspacePlans(d1, [row.workspaceId]),
  ]);
  const cap = PLAN_REQUEST_LOG[plans.get(row.workspaceId) ?? "FREE"].liveApiKeys;
  if ((live?.n ?? 0) <= cap) return;
  await db.delete(apiKeys).where(eq(apiKeys.id, row.id));
  throw new ApiError("ADMIN_ACTION_FORBIDDEN", {
    message: `이 워크스페이스에는 API 키를 ${cap}개까지 둘 수 있습니다. 쓰지 않는 키를 폐기한 뒤 다시 만들어 주세요.`,
  });
}

export async function findKeyByHash(d1: D1Database, hash: string): Promise<ApiKeyRow | null> {
  return (await database(d1).select().from(apiKeys).where(eq(apiKeys.hash, hash)).get()) ?? null;
}

/** A key by id, revoked or not: what a download link checks its maker against. */
export async function findKeyById(d1: D1Database, id: string): Promise<ApiKeyRow | null> {
  return (await database(d1).select().from(apiKeys).where(eq(apiKeys.id, id)).get()) ?? null;
}

/** The workspace's keys, newest first: all of them, or one page (`limit` + 1 rows past `after`, for platform/http/paging.ts). */
export function listApiKeys(d1: D1Database, workspaceId: string, page?: ListPage): Promise<ApiKeyRow[]> {
  const query = database(d1)
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.workspaceId, workspaceId), pastPosition(apiKeys.createdAt, apiKeys.id, page?.after)))
    .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id));
  return page ? query.limit(page.limit + 1).all() : query.all();
}

/** The hash names the key's request gate, which the caller tells (again, for an already revoked key). */
export type RevokeOutcome = { outcome: "REVOKED" | "ALREADY_REVOKED"; hash: string } | { outcome: "NOT_FOUND" };

export async function revokeApiKey(d1: D1Database, workspaceId: string, id: string): Promise<RevokeOutcome> {
  const db = database(d1);
  const [updated] = await db
    .update(apiKeys)
    .set({ revokedAt: Date.now() })
    .where(and(eq(apiKeys.id, id), eq(apiKeys.workspaceId, workspaceId), isNull(apiKeys.revokedAt)))
    .returning({ hash: apiKeys.hash });
  if (updated) return { outcome: "REVOKED", hash: updated.hash };
  const existing = await db.select({ hash: apiKeys.hash }).from(apiKeys).where(and(eq(apiKeys.id, id), eq(apiKeys.workspaceId, workspaceId))).get();
  return existing ? { outcome: "ALREADY_REVOKED", hash: existing.hash } : { outcome: "NOT_FOUND" };
}


/** The hashes of a workspace's live keys: each names the key's request gate (domain/api-keys/request-gate.ts). */
export async function liveKeyHashes(d1: D1Database, workspaceId: string): Promise<string[]> {
  const rows = await database(d1).select({ hash: apiKeys.hash }).from(apiKeys).where(and(eq(apiKeys.workspaceId, workspaceId), isNull(apiKeys.revokedAt))).all();
  return rows.map((r) => r.hash);
}

/** The person a key was made by (domain/api-keys/tables.ts `issuedByUserId`), which keys it makes inherit; null when none. */
export async function keyIssuer(d1: D1Database, id: string): Promise<string | null> {
  return (await database(d1).select({ issuer: apiKeys.issuedByUserId }).from(apiKeys).where(eq(apiKeys.id, id)).get())?.issuer ?? null;
}

/** Revokes the live keys with the managing right a person made in a workspace (or that keys they made made); the hashes name their request gates. */
export async function revokeManagingKeysIssuedBy(d1: D1Database, workspaceId: string, userId: string): Promise<string[]> {
  const revoked = await database(d1)
    .update(apiKeys)
    .set({ revokedAt: Date.now() })
    .where(and(eq(apiKeys.workspaceId, workspaceId), eq(apiKeys.issuedByUserId, userId), eq(apiKeys.canManageKeys, true), isNull(apiKeys.revokedAt)))
    .returning({ hash: apiKeys.hash });
  return revoked.map((r) => r.hash);
}

/** Revokes the live keys issued to a person in a workspace; the hashes name their request gates. */
export async function revokeKeysIssuedTo(d1: D1Database, workspaceId: string, userId: string): Promise<string[]> {
  const revoked = await database(d1)
    .update(apiKeys)
    .set({ revokedAt: Date.now() })
    .where(and(eq(apiKeys.workspaceId, workspaceId), eq(apiKeys.issuedToUserId, userId), isNull(apiKeys.revokedAt)))
    .returning({ hash: apiKeys.hash });
  return revoked.map((r) => r.hash);
}
