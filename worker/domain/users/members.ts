import { and, count, desc, eq, exists, gt, inArray, ne, or, sql } from "drizzle-orm";
import { alias, QueryBuilder } from "drizzle-orm/sqlite-core";
import { revokeIssuerManagingKeys, revokeUserKeys } from "../api-keys/revoke";
import type { Database } from "../../platform/database/client";
import { database } from "../../platform/database/client";
import type { MemberRole } from "../workspaces/tables";
import { users, workspaceMembers } from "./tables";
import { ApiError } from "../../platform/errors/api-error";
import { type ListPage, pastPosition } from "../../platform/database/cursor";
import { findWorkspace } from "../workspaces/store";
import { suspended } from "../workspaces/job-billing";
import { contains } from "../../platform/database/contains";
import { normalizeEmail } from "./email";

/** A person in a workspace, as the members API and the console show them. */
export interface Member {
  userId: string;
  email: string;
  role: MemberRole;
  joinedAt: number;
}

const MEMBER_COLUMNS = { userId: workspaceMembers.userId, email: users.email, role: workspaceMembers.role, joinedAt: workspaceMembers.createdAt };

export function membershipInsert(db: Database, row: typeof workspaceMembers.$inferInsert) {
  return db.insert(workspaceMembers).values(row);
}

/** Adds an existing user to a workspace (or changes their role there). */
export async function addMember(d1: D1Database, input: { workspaceId: string; userId: string; role: MemberRole }): Promise<void> {
  await database(d1)
    .insert(workspaceMembers)
    .values({ ...input, createdAt: Date.now() })
    .onConflictDoUpdate({ target: [workspaceMembers.workspaceId, workspaceMembers.userId], set: { role: input.role } });
}

/** The workspaces a user belongs to, oldest membership first (the console opens the first). */
export function memberships(d1: D1Database, userId: string): Promise<{ workspaceId: string; role: MemberRole }[]> {
  return database(d1)
    .select({ workspaceId: workspaceMembers.workspaceId, role: workspaceMembers.role })
    .from(workspaceMembers)
    .where(eq(workspaceMembers.userId, userId))
    .orderBy(workspaceMembers.createdAt)
    .all();
}

/** The user's role in the workspace; WORKSPACE_ACCESS_DENIED when they are no member of it. */
export async function requireMembership(d1: D1Database, userId: string, workspaceId: string): Promise<MemberRole> {
  const row = await database(d1)
    .select({ role: workspaceMembers.role })
    .from(workspaceMembers)
    .where(and(eq(workspaceMembers.userId, userId), eq(workspaceMembers.workspaceId, workspaceId)))
    .get();
  if (!row) throw new ApiError("WORKSPACE_ACCESS_DENIED");
  if ((await findWorkspace(d1, workspaceId))?.suspendedAt) throw suspended();
  return row.role;
}

/** The workspaces a user owns. */
export async function ownedWorkspaceIds(d1: D1Database, userId: string): Promise<string[]> {
  const rows = await database(d1)
    .select({ workspaceId: workspaceMembers.workspaceId })
    .from(workspaceMembers)
    .where(and(eq(workspaceMembers.userId, userId), eq(workspaceMembers.role, "owner")))
    .all();
  return rows.map((r) => r.workspaceId);
}

/** The workspaces whose owner's e-mail holds the term, for an operator's search (at most `limit`). */
export async function workspacesOwnedByEmail(d1: D1Database, term: string, limit: number): Promise<string[]> {
  const rows = await database(d1)
    .select({ workspaceId: workspaceMembers.workspaceId })
    .from(workspaceMembers)
    .innerJoin(users, eq(users.id, workspaceMembers.userId))
    .where(and(eq(workspaceMembers.role, "owner"), contains(users.email, normalizeEmail(term))))
    .limit(limit)
    .all();
  return rows.map((r) => r.workspaceId);
}

/** Each workspace's owner's e-mail (the earliest owner's, where there are several), for the operator console. */
export async function ownerEmails(d1: D1Database, workspaceIds: readonly string[]): Promise<Map<string, string>> {
  if (workspaceIds.length === 0) return new Map();
  const rows = await database(d1)
    .select({ workspaceId: workspaceMembers.workspaceId, email: users.email })
    .from(workspaceMembers)
    .innerJoin(users, eq(users.id, workspaceMembers.userId))
    .where(and(eq(workspaceMembers.role, "owner"), inArray(workspaceMembers.workspaceId, [...workspaceIds])))
    .orderBy(desc(workspaceMembers.createdAt))
    .all();
  // Oldest last, so it is the one the map keeps.
  return new Map(rows.map((r) => [r.workspaceId, r.email]));
}

/** A workspace's members, newest first: all of them, or one page (`limit` + 1 rows past `after`, for platform/http/paging.ts). */
export function listMembers(d1: D1Database, workspaceId: string, page?: ListPage): Promise<Member[]> {
  const query = database(d1)
    .select(MEMBER_COLUMNS)
    .from(workspaceMembers)
    .innerJoin(users, eq(users.id, workspaceMembers.userId))
    .where(and(eq(workspaceMembers.workspaceId, workspaceId), pastPosition(workspaceMembers.createdAt, workspaceMembers.userId, page?.after)))
    .orderBy(desc(workspaceMembers.createdAt), desc(workspaceMembers.userId));
  return page ? query.limit(page.limit + 1).all() : query.all();
}

export async function findMember(d1: D1Database, workspaceId: string, userId: string): Promise<Member | null> {
  const row = await database(d1)
    .select(MEMBER_COLUMNS)
    .from(workspaceMembers)
    .innerJoin(users, eq(users.id, workspaceMembers.userId))
    .where(and(eq(workspaceMembers.workspaceId, workspaceId), eq(workspaceMembers.userId, userId)))
    .get();
  return row ?? null;
}

/**
 * The condition that keeps a workspace owned: the row is no owner, or another owner remains. Checked inside the
 * statement that changes the row, so two owners demoting each other at once cannot both succeed.
 */
const owners = alias(workspaceMembers, "o");
const leavesAnOwner = or(
  ne(workspaceMembers.role, "owner"),
  gt(new QueryBuilder().select({ n: count() }).from(owners).where(and(eq(owners.workspaceId, workspaceMembers.workspaceId), eq(owners.role, "owner"))), 1),
);

const notAMember = () => new ApiError("WORKSPACE_MEMBER_NOT_FOUND");
const lastOwner = () =>
  new ApiError("ADMIN_ACTION_FORBIDDEN", {
    message: "워크스페이스의 마지막 소유자는 역할을 바꾸거나 나갈 수 없습니다. 먼저 다른 구성원에게 소유권을 넘겨 주세요.",
  });

/** Why a guarded change touched no row: the user is no member, or they are the last owner. */
async function refusal(d1: D1Database, workspaceId: string, userId: string): Promise<ApiError> {
  return (await findMember(d1, workspaceId, userId)) ? lastOwner() : notAMember();
}

type MembersEnv = Pick<Env, "DB" | "REQUEST_GATES">;

/**
 * Gives a member another role; the last owner cannot become a member (ADMIN_ACTION_FORBIDDEN). A member now is no
 * owner: the managing keys they made (domain/api-keys/revoke.ts `revokeIssuerManagingKeys`) are revoked with it.
 */
export async function changeRole(env: MembersEnv, workspaceId: string, userId: string, role: MemberRole): Promise<Member> {
  const changed = await database(env.DB)
    .update(workspaceMembers)
    .set({ role })
    // Becoming an owner leaves the workspace owned whatever the row was.
    .where(and(eq(workspaceMembers.workspaceId, workspaceId), eq(workspaceMembers.userId, userId), role === "owner" ? undefined : leavesAnOwner))
    .returning({ userId: workspaceMembers.userId })
    .get();
  if (!changed) throw await refusal(env.DB, workspaceId, userId);
  if (role !== "owner") await revokeIssuerManagingKeys(env, workspaceId, userId);
  return (await findMember(env.DB, workspaceId, userId))!;
}

/**
 * Takes a person out of a workspace (removed by an owner, or leaving): the last owner cannot go. The keys issued to
 * them by command-line sign-in go with them, and so do the managing keys they made; the workspace's data keys stay,
 * as they belong to the workspace.
 */
export async function removeMember(env: MembersEnv, workspaceId: string, userId: string): Promise<void> {
  const removed = await database(env.DB)
    .delete(workspaceMembers)
    .where(and(eq(workspaceMembers.workspaceId, workspaceId), eq(workspaceMembers.userId, userId), leavesAnOwner))
    .returning({ userId: workspaceMembers.userId })
    .get();
  if (!removed) throw await refusal(env.DB, workspaceId, userId);
  await revokeUserKeys(env, workspaceId, userId);
  await revokeIssuerManagingKeys(env, workspaceId, userId);
}

/**
 * An owner hands the workspace over: `to` becomes an owner and `from` a member, together or not at all; the managing
 * keys `from` made are revoked, as a member's would be.
 */
export async function handOver(env: MembersEnv, workspaceId: string, from: string, to: string): Promise<void> {
  const db = database(env.DB);
  if (from === to) throw new ApiError("ADMIN_ACTION_FORBIDDEN", { message: "소유권은 다른 구성원에게만 넘길 수 있습니다." });
  // `from` steps down only where `to` is now an owner: a `to` that is no member leaves both as they were.
  const newOwner = alias(workspaceMembers, "t");
  const [promoted] = await db.batch([
    db
      .update(workspaceMembers)
      .set({ role: "owner" })
      .where(and(eq(workspaceMembers.workspaceId, workspaceId), eq(workspaceMembers.userId, to)))
      .returning({ userId: workspaceMembers.userId }),
    db
      .update(workspaceMembers)
      .set({ role: "member" })
      .where(
        and(
          eq(workspaceMembers.workspaceId, workspaceId),
          eq(workspaceMembers.userId, from),
          exists(db.select({ one: sql`1` }).from(newOwner).where(and(eq(newOwner.workspaceId, workspaceId), eq(newOwner.userId, to), eq(newOwner.role, "owner")))),
        ),
      ),
  ]);
  if (promoted.length === 0) throw notAMember();
  await revokeIssuerManagingKeys(env, workspaceId, from);
}
