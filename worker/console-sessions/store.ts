import { and, eq, gt } from "drizzle-orm";
import { database } from "../db/client";
import { consoleSessions } from "../db/tables";
import { randomToken, sha256Hex } from "../lib/crypto";

/** A session lasts a working day from sign-in, then the user signs in again. */
export const SESSION_TTL_MS = 12 * 3_600_000;

export interface ConsoleSession {
  userId: string;
  tokenHash: string;
  expiresAt: number;
}

/** Opens a session; the returned token goes into the cookie and only its hash is kept. */
export async function openSession(d1: D1Database, userId: string, now: number = Date.now()): Promise<{ token: string; session: ConsoleSession }> {
  const token = randomToken(32);
  const session = { userId, tokenHash: await sha256Hex(token), expiresAt: now + SESSION_TTL_MS };
  await database(d1).insert(consoleSessions).values({ ...session, createdAt: now });
  return { token, session };
}

/** The live session a cookie token names, or null (unknown, signed out or expired). */
export async function findSession(d1: D1Database, token: string, now: number = Date.now()): Promise<ConsoleSession | null> {
  const tokenHash = await sha256Hex(token);
  const row = await database(d1)
    .select({ userId: consoleSessions.userId, tokenHash: consoleSessions.tokenHash, expiresAt: consoleSessions.expiresAt })
    .from(consoleSessions)
    .where(and(eq(consoleSessions.tokenHash, tokenHash), gt(consoleSessions.expiresAt, now)))
    .get();
  return row ?? null;
}

export async function closeSession(d1: D1Database, tokenHash: string): Promise<void> {
  await database(d1).delete(consoleSessions).where(eq(consoleSessions.tokenHash, tokenHash));
}

/** Expired sessions let no one in: removed in batches of `limit` (the retention cron, worker/retention.ts). */
export async function purgeExpiredSessions(d1: D1Database, limit: number, now: number = Date.now()): Promise<number> {
  const { meta } = await d1.prepare("DELETE FROM console_sessions WHERE rowid IN (SELECT rowid FROM console_sessions WHERE expires_at <= ? LIMIT ?)").bind(now, limit).run();
  return meta.changes;
}
