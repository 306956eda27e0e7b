import { and, eq, sql } from "drizzle-orm";
import type { HolderApproval } from "../../../contracts/task-unit";
import type { JobError } from "../../../contracts/job-failures";
import { database } from "../../platform/database/client";
import type { CredentialRow } from "../credentials/store";
import type { SessionEventsEnv } from "./events";
import { spendAttempts } from "./sessions";
import { registrationSessions } from "./tables";

/**
 * A login a registration session holds while the institution checks it (login-check.ts): the credential row sealed
 * as it will be stored, the scraper session logging in with it, and what the check found so far. It lives in the
 * session's row, not in credentials, so nothing is superseded until the institution let it in.
 */
export interface PendingLogin {
  /** One per submission: a later submission of the same session replaces it, and an older check then settles nothing. */
  checkId: string;
  row: CredentialRow;
  /** Null while the login is still being made (it went on after the submission answered). */
  scraperSessionId: string | null;
  awaiting: HolderApproval | null;
  /** The institution's refusal, kept until the page reads it once. */
  refused: JobError | null;
}

/** The session's pending login, if `checkId` is still the one it holds. */
export async function pendingLoginOf(d1: D1Database, sessionId: string): Promise<PendingLogin | null> {
  const row = await database(d1).select({ pending: registrationSessions.pendingLogin }).from(registrationSessions).where(eq(registrationSessions.id, sessionId)).get();
  return row?.pending ?? null;
}

/**
 * Holds `pending` for the session while it takes input. A login it replaces was given up before its answer was read:
 * that costs an attempt, as the refusal it may have been would, so resubmitting cannot try logins at the institution,
 * or ring a holder's phone, past the session's attempts (counted in the same statement, so concurrent submissions
 * each count too). False when the session no longer takes input, this replacement having locked it or otherwise.
 */
export async function holdPendingLogin(env: SessionEventsEnv, sessionId: string, pending: PendingLogin): Promise<boolean> {
  const held = registrationSessions.pendingLogin;
  return (await spendAttempts(env, sessionId, sql`(CASE WHEN ${held} IS NULL THEN 0 ELSE 1 END)`, sql`${JSON.stringify(pending)}`)) === "PENDING";
}

/** Updates the pending login of check `checkId` only: a newer submission's is left alone. False when it is no longer held. */
export async function updatePendingLogin(d1: D1Database, sessionId: string, checkId: string, change: Partial<Pick<PendingLogin, "scraperSessionId" | "awaiting" | "refused">>): Promise<boolean> {
  const held = await pendingLoginOf(d1, sessionId);
  if (held?.checkId !== checkId) return false;
  const t = registrationSessions;
  const updated = await database(d1)
    .update(t)
    .set({ pendingLogin: { ...held, ...change } })
    // The check id in the stored JSON, so a submission that replaced it meanwhile is not overwritten.
    .where(and(eq(t.id, sessionId), sql`json_extract(${t.pendingLogin}, '$.checkId') = ${checkId}`))
    .returning({ id: t.id })
    .get();
  return updated !== undefined;
}

/** Drops check `checkId`'s pending login (stored, refused and read, or given up). */
export async function dropPendingLogin(d1: D1Database, sessionId: string, checkId: string): Promise<void> {
  const t = registrationSessions;
  await database(d1).update(t).set({ pendingLogin: null }).where(and(eq(t.id, sessionId), sql`json_extract(${t.pendingLogin}, '$.checkId') = ${checkId}`));
}
