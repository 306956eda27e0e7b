import { and, asc, eq, gt, isNull, lt } from "drizzle-orm";
import { database } from "../../platform/database/client";
import { type OperatorRole, operatorSessions, operators } from "./tables";
import { randomToken, sha256Hex } from "../../platform/lib/crypto";
import { deleteBatch } from "../../platform/database/delete-batch";
import { rewrapText } from "../vault/envelope";
import { pastKey, type RewrapTally, rewrapRows, sealedBefore } from "../vault/rewrap-rows";
import { totpBinding } from "./enrol";

export type OperatorRow = typeof operators.$inferSelect;

/** The signed-in operator of an /admin request (admin/api/authenticate.ts). */
export interface Operator {
  id: string;
  email: string;
  role: OperatorRole;
  tokenHash: string;
}

/** An operator's session lasts one shift at most: past it, password and a fresh code again. */
export const OPERATOR_SESSION_TTL_MS = 8 * 3_600_000;
/** A session no request used for this long has ended: `expires_at` slides this far ahead of the last use, up to the shift's end. */
export const OPERATOR_SESSION_IDLE_MS = 30 * 60_000;
/** Uses closer together than this do not move the expiry again, so reading pages is not a write per request. */
const SLIDE_STEP_MS = 60_000;

export async function findOperatorByEmail(d1: D1Database, email: string): Promise<OperatorRow | null> {
  return (await database(d1).select().from(operators).where(and(eq(operators.email, email), isNull(operators.disabledAt))).get()) ?? null;
}

/** Records `step` as the operator's last accepted code, only if it is later than the last: false when another sign-in used it first. */
export async function useTotpStep(d1: D1Database, operatorId: string, step: number): Promise<boolean> {
  const done = await database(d1)
    .update(operators)
    .set({ totpLastStep: step })
    .where(and(eq(operators.id, operatorId), lt(operators.totpLastStep, step)))
    .returning({ id: operators.id });
  return done.length === 1;
}

/** Opens a session; the token goes to the operator once, and only its hash is kept. */
export async function openOperatorSession(d1: D1Database, operatorId: string, now: number = Date.now()): Promise<{ token: string; expiresAt: number }> {
  const token = `ops_${randomToken(32)}`;
  const expiresAt = now + Math.min(OPERATOR_SESSION_IDLE_MS, OPERATOR_SESSION_TTL_MS);
  await database(d1).insert(operatorSessions).values({ tokenHash: await sha256Hex(token), operatorId, createdAt: now, expiresAt });
  return { token, expiresAt };
}

/**
 * The live session's operator, or null: unknown token, ended session (idle OPERATOR_SESSION_IDLE_MS, or past its
 * shift), or an account disabled since. Using it moves its expiry to OPERATOR_SESSION_IDLE_MS from now, never past
 * OPERATOR_SESSION_TTL_MS from sign-in.
 */
export async function findOperatorSession(d1: D1Database, token: string, now: number = Date.now()): Promise<Operator | null> {
  const tokenHash = await sha256Hex(token);
  const row = await database(d1)
    .select({ id: operators.id, email: operators.email, role: operators.role, createdAt: operatorSessions.createdAt, expiresAt: operatorSessions.expiresAt })
    .from(operatorSessions)
    .innerJoin(operators, eq(operators.id, operatorSessions.operatorId))
    .where(and(eq(operatorSessions.tokenHash, tokenHash), gt(operatorSessions.expiresAt, now), isNull(operators.disabledAt)))
    .get();
  if (!row) return null;
  const { createdAt, expiresAt, ...operator } = row;
  const slid = Math.min(now + OPERATOR_SESSION_IDLE_MS, createdAt + OPERATOR_SESSION_TTL_MS);
  if (slid - expiresAt >= SLIDE_STEP_MS) await database(d1).update(operatorSessions).set({ expiresAt: slid }).where(eq(operatorSessions.tokenHash, tokenHash));
  return { ...operator, tokenHash };
}

export async function closeOperatorSession(d1: D1Database, tokenHash: string): Promise<void> {
  await database(d1).delete(operatorSessions).where(eq(operatorSessions.tokenHash, tokenHash));
}

/** Ended sessions let no one in: removed in batches by the retention cron. */
export function purgeExpiredOperatorSessions(d1: D1Database, limit: number, now: number = Date.now()): Promise<number> {
  return deleteBatch(d1, "operator_sessions", "expires_at <= ?", [now], limit);
}

/** A rotation step over operators' TOTP secrets (domain/key-rotation/rewrap.ts): `limit` rows past `after` still sealed under an older master key version. */
export function rewrapOperatorSecrets(d1: D1Database, masterSecret: string, after: string | null, limit: number): Promise<RewrapTally> {
  const db = database(d1);
  return rewrapRows(masterSecret, after, limit, {
    stale: (latest, after, limit) =>
      db
        .select({ id: operators.id, sealed: operators.totpSealed })
        .from(operators)
        .where(and(pastKey(operators.id, after), sealedBefore(operators.totpSealed, latest)))
        .orderBy(asc(operators.id))
        .limit(limit)
        .all(),
    rewrap: (row) => rewrapText(masterSecret, totpBinding(row.id), row.sealed),
    write: (row, sealed) => db.update(operators).set({ totpSealed: sealed }).where(and(eq(operators.id, row.id), eq(operators.totpSealed, row.sealed))),
  });
}
