import { and, asc, desc, eq, gt, isNull, sql } from "drizzle-orm";
import { type Database, database } from "../../platform/database/client";
import { deleteBatch } from "../../platform/database/delete-batch";
import type { MemberRole } from "../workspaces/tables";
import { users, workspaceInvitations, workspaceMembers } from "./tables";
import { ApiError } from "../../platform/errors/api-error";
import { type ListPage, pastPosition } from "../../platform/database/cursor";
import { randomToken, sha256Hex } from "../../platform/lib/crypto";
import { normalizeEmail } from "./email";
import { hashPassword } from "./password";

/** An invitation is good for a week, once: long enough for a colleague on leave, short enough to forget. */
export const INVITATION_TTL_MS = 7 * 86_400_000;
/** Invitations a workspace may send in any 24 hours: each one mails an address an owner typed. */
export const INVITATIONS_PER_DAY = 50;
const DAY_MS = 86_400_000;

export type InvitationRow = typeof workspaceInvitations.$inferSelect;

const pending = (now: number) => and(isNull(workspaceInvitations.acceptedAt), isNull(workspaceInvitations.revokedAt), gt(workspaceInvitations.expiresAt, now));

export const invalidInvitation = () =>
  new ApiError("INVALID_TOKEN", { message: "초대 링크가 올바르지 않거나 이미 쓰였거나 만료되었거나 취소되었습니다. 워크스페이스 소유자에게 다시 초대해 달라고 요청해 주세요." });

/**
 * Invites an address to a workspace with a role: a new pending invitation whose link the caller mails (the token
 * is returned once; only its hash is kept). It replaces the address's earlier pending one, so the newest link is
 * the only one that works. A current member's address is refused (409 DUPLICATE_EMAIL); more than
 * INVITATIONS_PER_DAY in 24 hours is 429 API_RATE_LIMITED with Retry-After.
 */
export async function invite(d1: D1Database, input: { workspaceId: string; email: string; role: MemberRole }, now: number = Date.now()): Promise<{ invitation: InvitationRow; token: string }> {
  const db = database(d1);
  const email = normalizeEmail(input.email);
  const member = await db
    .select({ found: sql`1` })
    .from(workspaceMembers)
    .innerJoin(users, eq(users.id, workspaceMembers.userId))
    .where(and(eq(workspaceMembers.workspaceId, input.workspaceId), eq(users.email, email)))
    .get();
  if (member) throw new ApiError("DUPLICATE_EMAIL", { message: "이미 이 워크스페이스의 구성원인 이메일 주소입니다." });
  const recent = await db
    .select({ createdAt: workspaceInvitations.createdAt })
    .from(workspaceInvitations)
    .where(and(eq(workspaceInvitations.workspaceId, input.workspaceId), gt(workspaceInvitations.createdAt, now - DAY_MS)))
    .orderBy(asc(workspaceInvitations.createdAt))
    .limit(INVITATIONS_PER_DAY)
    .all();
  if (recent.length >= INVITATIONS_PER_DAY) {
    const retryAfter = Math.max(1, Math.ceil((recent[0]!.createdAt + DAY_MS - now) / 1000));
    throw new ApiError("API_RATE_LIMITED", {
      message: `초대는 24시간에 ${INVITATIONS_PER_DAY}번까지 보낼 수 있습니다. ${Math.ceil(retryAfter / 60)}분 뒤에 다시 시도해 주세요.`,
      headers: { "Retry-After": String(retryAfter) },
    });
  }
  const token = randomToken(32);
  const invitation: InvitationRow = {
    id: crypto.randomUUID(),
    workspaceId: input.workspaceId,
    email,
    role: input.role,
    tokenHash: await sha256Hex(token),
    createdAt: now,
    expiresAt: now + INVITATION_TTL_MS,
    acceptedAt: null,
    acceptedBy: null,
    revokedAt: null,
  };
  await db.batch([
    db
      .update(workspaceInvitations)
      .set({ revokedAt: now })
      .where(and(eq(workspaceInvitations.workspaceId, input.workspaceId), eq(workspaceInvitations.email, email), pending(now))),
    db.insert(workspaceInvitations).values(invitation),
  ]);
  return { invitation, token };
}

/** A workspace's pending invitations, newest first: all of them, or one page (`limit` + 1 rows past `after`). */
export function pendingInvitations(d1: D1Database, workspaceId: string, page?: ListPage, now: number = Date.now()): Promise<InvitationRow[]> {
  const query = database(d1)
    .select()
    .from(workspaceInvitations)
    .where(and(eq(workspaceInvitations.workspaceId, workspaceId), pending(now), pastPosition(workspaceInvitations.createdAt, workspaceInvitations.id, page?.after)))
    .orderBy(desc(workspaceInvitations.createdAt), desc(workspaceInvitations.id));
  return page ? query.limit(page.limit + 1).all() : query.all();
}

/** Withdraws a pending invitation: its link stops working. 404 RESOURCE_NOT_FOUND when the workspace has no such pending invitation. */
export async function revokeInvitation(d1: D1Database, workspaceId: string, id: string, now: number = Date.now()): Promise<void> {
  const done = await database(d1)
    .update(workspaceInvitations)
    .set({ revokedAt: now })
    .where(and(eq(workspaceInvitations.id, id), eq(workspaceInvitations.workspaceId, workspaceId), pending(now)))
    .returning({ id: workspaceInvitations.id });
  if (done.length === 0) throw new ApiError("RESOURCE_NOT_FOUND", { message: "대기 중인 초대를 찾을 수 없습니다. 이미 수락·취소되었거나 만료되었을 수 있습니다." });
}

/** The pending invitation a link's token names, for its page; null for anything else. */
export async function pendingInvitation(d1: D1Database, token: string, now: number = Date.now()): Promise<InvitationRow | null> {
  const row = await database(d1)
    .select()
    .from(workspaceInvitations)
    .where(and(eq(workspaceInvitations.tokenHash, await sha256Hex(token)), pending(now)))
    .get();
  return row ?? null;
}

/** Statements that spend the invitation for `userId` and make them a member with its role (a member already keeps theirs). */
function acceptStatements(db: Database, tokenHash: string, userId: string, now: number) {
  const spend = db
    .update(workspaceInvitations)
    .set({ acceptedAt: now, acceptedBy: userId })
    .where(and(eq(workspaceInvitations.tokenHash, tokenHash), pending(now)))
    .returning({ workspaceId: workspaceInvitations.workspaceId, role: workspaceInvitations.role });
  const join = db
    .insert(workspaceMembers)
    .select(
      db
        .select({ workspaceId: workspaceInvitations.workspaceId, userId: workspaceInvitations.acceptedBy, role: workspaceInvitations.role, createdAt: workspaceInvitations.acceptedAt })
        .from(workspaceInvitations)
        .where(and(eq(workspaceInvitations.tokenHash, tokenHash), eq(workspaceInvitations.acceptedBy, userId), eq(workspaceInvitations.acceptedAt, now))),
    )
    .onConflictDoNothing({ target: [workspaceMembers.workspaceId, workspaceMembers.userId] });
  return [spend, join] as const;
}

/**
 * A signed-in user accepts: only the person whose address was invited (403 WORKSPACE_ACCESS_DENIED for anyone
 * else, so a forwarded link is worth nothing to its reader), once (INVALID_TOKEN after).
 */
export async function acceptInvitation(d1: D1Database, token: string, user: { id: string; email: string }, now: number = Date.now()): Promise<{ workspaceId: string; role: MemberRole }> {
  const invitation = await pendingInvitation(d1, token, now);
  if (!invitation) throw invalidInvitation();
  if (invitation.email !== user.email) {
    throw new ApiError("WORKSPACE_ACCESS_DENIED", { message: `이 초대는 ${invitation.email} 주소로 보낸 것입니다. 그 주소의 계정으로 로그인한 뒤 수락해 주세요.` });
  }
  const db = database(d1);
  const [spent] = await db.batch(acceptStatements(db, invitation.tokenHash, user.id, now));
  const row = spent[0];
  if (!row) throw invalidInvitation();
  return { workspaceId: row.workspaceId, role: row.role };
}

/**
 * Someone without an account accepts: the account is made with the invited address (confirmed, since the link
 * reached it) and the password they chose, and joins, all in one transaction. An address that has an account
 * since is 409 DUPLICATE_EMAIL: they sign in and accept instead. The token is checked before the password is hashed,
 * so a made-up or spent token costs one indexed read, never a key derivation; the statements below check it again.
 */
export async function signUpAndAccept(d1: D1Database, token: string, password: string, now: number = Date.now()): Promise<{ userId: string; workspaceId: string }> {
  if (!(await pendingInvitation(d1, token, now))) throw invalidInvitation();
  const tokenHash = await sha256Hex(token);
  const userId = crypto.randomUUID();
  const passwordHash = await hashPassword(password);
  const db = database(d1);
  const createUser = db
    .insert(users)
    .select(
      db
        .select({ id: sql`${userId}`.as("id"), email: workspaceInvitations.email, passwordHash: sql`${passwordHash}`.as("password_hash"), emailVerifiedAt: sql`${now}`.as("email_verified_at"), createdAt: sql`${now}`.as("created_at") })
        .from(workspaceInvitations)
        .where(and(eq(workspaceInvitations.tokenHash, tokenHash), pending(now))),
    );
  const [, spent] = await db.batch([createUser, ...acceptStatements(db, tokenHash, userId, now)]).catch((err: unknown) => {
    if (/UNIQUE/i.test(String(err))) throw new ApiError("DUPLICATE_EMAIL", { message: "이 이메일 주소의 계정이 이미 있습니다. 로그인한 뒤 초대를 수락해 주세요." });
    throw err;
  });
  const row = spent[0];
  if (!row) throw invalidInvitation();
  return { userId, workspaceId: row.workspaceId };
}

/** Invitations past their expiry by a month (accepted, withdrawn or not), in batches of `limit` (worker/domain/retention/purge.ts). */
export function purgeOldInvitations(d1: D1Database, limit: number, now: number = Date.now()): Promise<number> {
  return deleteBatch(d1, "workspace_invitations", "expires_at <= ?", [now - 30 * DAY_MS], limit);
}
