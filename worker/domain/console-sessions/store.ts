import { and, eq, gt } from "drizzle-orm";
import { database } from "../../platform/database/client";
import { consoleSessions } from "./tables";
import { randomToken, sha256Hex } from "../../platform/lib/crypto";
import { deleteBatch } from "../../platform/database/delete-batch";

/** A session lasts at most a working day from sign-in, then the user signs in again. */
export const SESSION_TTL_MS = 12 * 3_600_000;
/** A session nobody used for this long has ended: `expires_at` slides this far ahead of the last use, up to the day's end. */
export const SESSION_IDLE_MS = 30 * 60_000;
/** Uses closer together than this do not move the expiry again, so reading pages is not a write per request. */
const SLIDE_STEP_MS = 60_000;

export interface ConsoleSession {
  userId: string;
  tokenHash: string;
  expiresAt: number;
}

/** Opens a session; the returned token goes into the cookie and only its hash is kept. */
export async function openSession(d1: D1Database, userId: string, now: number = Date.now()): Promise<{ token: string; session: ConsoleSession }> {
  const token = randomToken(32);
  const session = { userId, tokenHash: await sha256Hex(token), expiresAt: now + Math.min(SESSION_IDLE_MS, SESSION_TTL_MS) };
  await database(d1).insert(consoleSessions).values({ ...session, createdAt: now });
  return { token, session };
}

/**
 * The live session a cookie token names, or null (unknown, signed out, idle too long or past its day). Using it
 * moves its expiry to SESSION_IDLE_MS from now, never past SESSION_TTL_MS from sign-in.
 */
export async function findSession(d1: D1Database, token: string, now: number = Date.now()): Promise<ConsoleSession | null> {
  const tokenHash = await sha256Hex(token);
  const row = await database(d1)
    .select({ userId: consoleSessions.userId, tokenHash: consoleSessions.tokenHash, expiresAt: consoleSessions.expiresAt, createdAt: consoleSessions.createdAt })
    .from(consoleSessions)
    .where(and(eq(consoleSessions.tokenHash, tokenHash), gt(consoleSessions.expiresAt, now)))
    .get();
  if (!row) return null;
  const slid = Math.min(now + SESSION_IDLE_MS, row.createdAt + SESSION_TTL_MS);
  if (slid - row.expiresAt >= SLIDE_STEP_MS) {
    await database(d1).update(consoleSessions).set({ expiresAt: slid }).where(eq(consoleSessions.tokenHash, tokenHash));
    return { userId: row.userId, tokenHash, expiresAt: slid };
  }
  return { userId: row.userId, tokenHash, expiresAt: row.expiresAt };
}

export async function closeSession(d1: D1Database, tokenHash: string): Promise<void> {
  await database(d1).delete(consoleSessions).where(eq(consoleSessions.tokenHash, tokenHash));
}

/** Signs the user out in every browser (a lost laptop, a shared computer). */
export async function closeUserSessions(d1: D1Database, userId: string): Promise<void> {
  await database(d1).delete(consoleSessions).where(eq(consoleSessions.userId, userId));
}

/** Expired sessions let no one in: removed in batches of `limit` (the retention cron, worker/domain/retention/purge.ts). */
export async function purgeExpiredSessions(d1: D1Database, limit: number, now: number = Date.now()): Promise<number> {
  return deleteBatch(d1, "console_sessions", "expires_at <= ?", [now], limit);
}
