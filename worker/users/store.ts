import { and, eq } from "drizzle-orm";
import { database } from "../db/client";
import { type MemberRole, users, workspaceMembers } from "../db/tables";
import { ApiError } from "../errors/api-error";
import { findWorkspace, insertOwnWorkspace, openToRealInstitutions, suspended } from "../workspaces/store";
import { normalizeEmail } from "./email";
import { hashPassword } from "./password";

export type UserRow = typeof users.$inferSelect;

/**
 * A new user with a workspace of their own, which they own: one transaction,
 * so a duplicate e-mail leaves no orphan workspace behind.
 */
export async function signUp(d1: D1Database, input: { email: string; password: string; workspaceName: string; businessNumber: string }): Promise<{ user: UserRow; workspaceId: string }> {
  const db = database(d1);
  const now = Date.now();
  const user: UserRow = { id: crypto.randomUUID(), email: normalizeEmail(input.email), passwordHash: await hashPassword(input.password), emailVerifiedAt: null, createdAt: now };
  const workspaceId = crypto.randomUUID();
  try {
    await db.batch([
      db.insert(users).values(user),
      insertOwnWorkspace(db, { id: workspaceId, name: input.workspaceName, businessNumber: input.businessNumber, createdAt: now }),
      db.insert(workspaceMembers).values({ workspaceId, userId: user.id, role: "owner", createdAt: now }),
    ]);
  } catch (err) {
    if (await findUserByEmail(d1, user.email)) throw new ApiError("DUPLICATE_EMAIL");
    throw err;
  }
  return { user, workspaceId };
}

export async function findUserByEmail(d1: D1Database, email: string): Promise<UserRow | null> {
  return (await database(d1).select().from(users).where(eq(users.email, normalizeEmail(email))).get()) ?? null;
}

export async function findUser(d1: D1Database, id: string): Promise<UserRow | null> {
  return (await database(d1).select().from(users).where(eq(users.id, id)).get()) ?? null;
}

/** Adds an existing user to a workspace (or changes their role there). */
export async function addMember(d1: D1Database, input: { workspaceId: string; userId: string; role: MemberRole }): Promise<void> {
  await database(d1)
    .insert(workspaceMembers)
    .values({ ...input, createdAt: Date.now() })
    .onConflictDoUpdate({ target: [workspaceMembers.workspaceId, workspaceMembers.userId], set: { role: input.role } });
}

export function memberships(d1: D1Database, userId: string): Promise<{ workspaceId: string; role: MemberRole }[]> {
  return database(d1).select({ workspaceId: workspaceMembers.workspaceId, role: workspaceMembers.role }).from(workspaceMembers).where(eq(workspaceMembers.userId, userId)).all();
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

/** The user followed the link mailed at sign-up: their e-mail is confirmed, and the workspaces they own may use real institutions. */
export async function confirmEmail(d1: D1Database, userId: string, now: number = Date.now()): Promise<void> {
  const db = database(d1);
  await db.update(users).set({ emailVerifiedAt: now }).where(eq(users.id, userId));
  const owned = await db.select({ workspaceId: workspaceMembers.workspaceId }).from(workspaceMembers).where(and(eq(workspaceMembers.userId, userId), eq(workspaceMembers.role, "owner"))).all();
  await openToRealInstitutions(d1, owned.map((m) => m.workspaceId));
}
