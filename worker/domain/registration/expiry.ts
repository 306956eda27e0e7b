import { and, eq, lte } from "drizzle-orm";
import { database } from "../../platform/database/client";
import { registrationSessions } from "./tables";
import { type SessionEventsEnv, sessionEnded } from "./events";

/**
 * Writes EXPIRED on sessions whose time ran out while PENDING, and announces
 * each once (the update moves a session only once). Readers already saw
 * them as EXPIRED (status.ts effectiveStatus); the cron runs this.
 */
export async function expireSessions(env: SessionEventsEnv, now = Date.now()): Promise<number> {
  const expired = await database(env.DB)
    .update(registrationSessions)
    .set({ status: "EXPIRED", finishedAt: now, pendingLogin: null })
    .where(and(eq(registrationSessions.status, "PENDING"), lte(registrationSessions.expiresAt, now)))
    .returning();
  for (const row of expired) await sessionEnded(env, row);
  return expired.length;
}
