import { and, eq, gt, type SQL, sql } from "drizzle-orm";
import { type Database, database, statementOf } from "../../platform/database/client";
import { type RegistrationSessionStatus, registrationSessions } from "./tables";
import { ApiError } from "../../platform/errors/api-error";
import type { ApiErrorCode } from "../../platform/errors/codes";
import { randomToken, sha256Hex } from "../../platform/lib/crypto";
import { type SessionEventsEnv, sessionEnded } from "./events";
import { effectiveStatus, MAX_ATTEMPTS, type SessionRow } from "./status";
import { deleteBatch } from "../../platform/database/delete-batch";
import { type CredentialRow } from "../credentials/store";
import { alreadyExists, isIdentityConflict, replaceCredentialStatements, supersededIds } from "../credentials/replace";

export type RegistrationOption = SessionRow["options"][number];

export const SESSION_TTL_MS = 30 * 60_000;
const TOKEN_PREFIX = "rst_";

/** Why a session no longer takes input, as the spec's 410 codes. */
const DEAD: Record<Exclude<RegistrationSessionStatus, "PENDING">, ApiErrorCode> = {
  CONSUMED: "REGISTRATION_SESSION_ALREADY_CONSUMED",
  CANCELLED: "REGISTRATION_SESSION_ALREADY_CANCELLED",
  EXPIRED: "REGISTRATION_SESSION_EXPIRED",
  LOCKED: "REGISTRATION_SESSION_MAX_ATTEMPTS_EXCEEDED",
};

/** Throws the session's 410 code unless it still takes input. */
export function assertPending(row: SessionRow): void {
  const status = effectiveStatus(row);
  if (status !== "PENDING") throw new ApiError(DEAD[status]);
}

export async function issueSession(
  d1: D1Database,
  input: { workspaceId: string; businessNumber: string | null; options: RegistrationOption[]; originAllowlist: string[]; clientReferenceId: string | null; recoversCredentialId?: string },
): Promise<{ row: SessionRow; token: string }> {
  const token = `${TOKEN_PREFIX}${randomToken(32)}`;
  const now = Date.now();
  const row: SessionRow = {
    id: crypto.randomUUID(),
    workspaceId: input.workspaceId,
    tokenHash: await sha256Hex(token),
    status: "PENDING",
    options: input.options,
    originAllowlist: input.originAllowlist,
    clientReferenceId: input.clientReferenceId,
    businessNumber: input.businessNumber,
    attempts: 0,
    credentialId: null,
    recoversCredentialId: input.recoversCredentialId ?? null,
    consentStateHash: null,
    consentStateExpiresAt: null,
    consentOutcome: null,
    pendingLogin: null,
    createdAt: now,
    expiresAt: now + SESSION_TTL_MS,
    finishedAt: null,
  };
  await database(d1)
    .insert(registrationSessions)
    .values(row)
    .catch((err: unknown) => {
      if (String(err).includes("recovers_credential_id")) throw recoveryInProgress();
      throw err;
    });
  return { row, token };
}

function recoveryInProgress(): ApiError {
  return new ApiError("CREDENTIAL_RECOVERY_IN_PROGRESS", {
    message: "이 자격 증명을 되살리는 등록 세션이 이미 입력을 기다리고 있습니다. 그 세션을 쓰거나 취소한 뒤(만료까지 최대 30분) 다시 발급해 주세요.",
  });
}

export async function findSession(d1: D1Database, workspaceId: string, id: string): Promise<SessionRow> {
  const row = await database(d1).select().from(registrationSessions).where(and(eq(registrationSessions.id, id), eq(registrationSessions.workspaceId, workspaceId))).get();
  if (!row) throw new ApiError("REGISTRATION_SESSION_NOT_FOUND");
  return row;
}

/**
 * The session a token opens for the hosted UI, if it still takes input. A used, cancelled, expired or locked token
 * is dead for good. Which pages may use it is the session's allowlist, handed to the page with the session
 * (api/connect/session.ts), never taken from the request: the page shows its form only where the browser reports
 * an allowlisted opener and frame ancestors (web/hosted-ui/ui-script.ts).
 */
export async function usableSessionForPage(d1: D1Database, token: string): Promise<SessionRow> {
  const row = token.startsWith(TOKEN_PREFIX)
    ? await database(d1).select().from(registrationSessions).where(eq(registrationSessions.tokenHash, await sha256Hex(token))).get()
    : undefined;
  if (!row) throw new ApiError("REGISTRATION_SESSION_TOKEN_INVALID");
  assertPending(row);
  return row;
}

export async function cancelSession(env: SessionEventsEnv, row: SessionRow): Promise<SessionRow> {
  assertPending(row);
  const now = Date.now();
  const [updated] = await database(env.DB)
    .update(registrationSessions)
    .set({ status: "CANCELLED", finishedAt: now, pendingLogin: null })
    .where(and(eq(registrationSessions.id, row.id), eq(registrationSessions.status, "PENDING")))
    .returning();
  if (!updated) return cancelSession(env, await findSession(env.DB, row.workspaceId, row.id));
  await sessionEnded(env, updated);
  return updated;
}

/**
 * Cancels a workspace's sessions still taking input (its connection was
 * revoked), to batch with that revocation: their tokens then answer 410
 * REGISTRATION_SESSION_ALREADY_CANCELLED. Expired ones stay EXPIRED.
 */
export function cancelWorkspaceSessions(db: Database, workspaceId: string, now: number) {
  return db
    .update(registrationSessions)
    // A login held for the institution's answer is sealed for a credential that will not be: it goes with the session.
    .set({ status: "CANCELLED", finishedAt: now, pendingLogin: null })
    .where(and(eq(registrationSessions.workspaceId, workspaceId), eq(registrationSessions.status, "PENDING"), gt(registrationSessions.expiresAt, now)));
}

/**
 * The sessions revokeConnection's batch (cancelWorkspaceSessions above)
 * cancelled at `now`, announced once that batch committed.
 */
export async function workspaceSessionsCancelled(env: SessionEventsEnv, workspaceId: string, now: number): Promise<void> {
  const cancelled = await database(env.DB)
    .select()
    .from(registrationSessions)
    .where(and(eq(registrationSessions.workspaceId, workspaceId), eq(registrationSessions.status, "CANCELLED"), eq(registrationSessions.finishedAt, now)))
    .all();
  for (const row of cancelled) await sessionEnded(env, row);
}

/** Counts a rejected submission; the last allowed one locks the session. */
export async function recordFailedAttempt(env: SessionEventsEnv, id: string): Promise<void> {
  await spendAttempts(env, id, sql`1`, sql`${registrationSessions.pendingLogin}`);
}

/**
 * Adds `spent` (an expression of the row) to a PENDING session's attempts and sets its pending login to `pendingLogin`,
 * in one statement, so concurrent submissions each count; reaching MAX_ATTEMPTS locks the session, which then holds
 * no login being checked. Answers the status after, or undefined when the session no longer took input.
 */
export async function spendAttempts(env: SessionEventsEnv, id: string, spent: SQL, pendingLogin: SQL): Promise<RegistrationSessionStatus | undefined> {
  const t = registrationSessions;
  const locks = sql`${t.attempts} + ${spent} >= ${MAX_ATTEMPTS}`;
  const row = await database(env.DB)
    .update(t)
    .set({
      attempts: sql`${t.attempts} + ${spent}`,
      status: sql`CASE WHEN ${locks} THEN 'LOCKED' ELSE ${t.status} END`,
      finishedAt: sql`CASE WHEN ${locks} THEN ${Date.now()} ELSE ${t.finishedAt} END`,
      pendingLogin: sql`CASE WHEN ${locks} THEN NULL ELSE ${pendingLogin} END`,
    })
    .where(and(eq(t.id, id), eq(t.status, "PENDING")))
    .returning({ id: t.id, workspaceId: t.workspaceId, status: t.status })
    .get();
  if (row?.status === "LOCKED") await sessionEnded(env, await findSession(env.DB, row.workspaceId, row.id));
  return row?.status;
}

/** The statement that consumes a session for a credential, only while it is still PENDING. */
export function consumeStatement(d1: D1Database, id: string, credentialId: string, now: number): D1PreparedStatement {
  return statementOf(
    d1,
    database(d1)
      .update(registrationSessions)
      .set({ status: "CONSUMED", credentialId, finishedAt: now, pendingLogin: null })
      .where(and(eq(registrationSessions.id, id), eq(registrationSessions.status, "PENDING"), gt(registrationSessions.expiresAt, now))),
  );
}

/** The condition under which a credential may go in for the session: it still takes input. */
export function sessionStillPending(id: string, now: number): { condition: string; binds: unknown[] } {
  return { condition: "EXISTS (SELECT 1 FROM registration_sessions WHERE id = ? AND status = 'PENDING' AND expires_at > ?)", binds: [id, now] };
}

/** Whether a session was ever issued with this token, whatever its status: the hosted UI's rate limit counts only real sessions. */
export async function sessionTokenIssued(d1: D1Database, tokenHash: string): Promise<boolean> {
  const row = await database(d1).select({ id: registrationSessions.id }).from(registrationSessions).where(eq(registrationSessions.tokenHash, tokenHash)).get();
  return row !== undefined;
}

/** How long a finished session (used, cancelled, expired or locked) can still be read by its partner. */
export const FINISHED_SESSION_RETENTION_MS = 30 * 24 * 3_600_000;

/** Finished sessions past their retention: removed in batches of `limit` (worker/domain/retention/purge.ts); they then read as not found. */
export async function purgeFinishedSessions(d1: D1Database, limit: number, now: number = Date.now()): Promise<number> {
  return deleteBatch(d1, "registration_sessions", "finished_at IS NOT NULL AND finished_at <= ?", [now - FINISHED_SESSION_RETENTION_MS], limit);
}

/** The session after the batch that consumes it for `credentialId`, or why that batch changed nothing. */
export async function consumedFor(env: SessionEventsEnv, session: SessionRow, credentialId: string): Promise<SessionRow> {
  const after = await findSession(env.DB, session.workspaceId, session.id);
  if (after.credentialId === credentialId) return after;
  // Another submission, a cancellation or the clock got there first.
  assertPending(after);
  throw new ApiError("REGISTRATION_SESSION_NOT_USABLE");
}

/**
 * Stores the credential a session registered and consumes the session, in one transaction and only while the session
 * still takes input, superseding the same login's earlier row; a login stored meanwhile is 409 CREDENTIAL_ALREADY_EXISTS.
 * Answers the consumed session and the rows superseded. Every way a session ends in a new credential goes through here
 * (a submission, a checked login, a consent).
 */
export async function consumeWithCredential(env: SessionEventsEnv, session: SessionRow, row: CredentialRow, now: number): Promise<{ after: SessionRow; superseded: string[] }> {
  const [supersede] = await env.DB.batch([...replaceCredentialStatements(env.DB, row, sessionStillPending(session.id, now)), consumeStatement(env.DB, session.id, row.id, now)]).catch((err: unknown) => {
    throw isIdentityConflict(err) ? alreadyExists() : err;
  });
  return { after: await consumedFor(env, session, row.id), superseded: supersededIds(supersede!) };
}
