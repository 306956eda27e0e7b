import { eq } from "drizzle-orm";
import { database } from "../../platform/database/client";
import { users } from "./tables";
import { ApiError } from "../../platform/errors/api-error";
import { insertOwnWorkspace } from "../workspaces/store";
import { openToRealInstitutions } from "../workspaces/provider-access";
import { normalizeEmail } from "./email";
import { membershipInsert, ownedWorkspaceIds } from "./members";
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
      membershipInsert(db, { workspaceId, userId: user.id, role: "owner", createdAt: now }),
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

/** The user followed the link mailed at sign-up: their e-mail is confirmed, and the workspaces they own may use real institutions. */
export async function confirmEmail(d1: D1Database, userId: string, now: number = Date.now()): Promise<void> {
  await database(d1).update(users).set({ emailVerifiedAt: now }).where(eq(users.id, userId));
  await openToRealInstitutions(d1, await ownedWorkspaceIds(d1, userId));
}
