import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { MEMBER_ROLES, workspaces } from "../workspaces/tables";

// Timestamps are epoch milliseconds: D1 has no native time type, and integers sort and compare exactly.

/** A person who signs in to the console. */
export const users = sqliteTable(
  "users",
  {
    id: text("id").primaryKey(),
    /** Lower-cased, so one address cannot sign up twice in another case. */
    email: text("email").notNull(),
    /** `pbkdf2-sha256$<iterations>$<salt>$<hash>` (domain/users/password.ts): the parameters travel with the hash, so they can be raised later. */
    passwordHash: text("password_hash").notNull(),
    /** When the user followed the link mailed at sign-up; null until then. */
    emailVerifiedAt: integer("email_verified_at"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [uniqueIndex("users_email").on(t.email)],
);

export const workspaceMembers = sqliteTable(
  "workspace_members",
  {
    workspaceId: text("workspace_id").notNull().references(() => workspaces.id),
    userId: text("user_id").notNull().references(() => users.id),
    role: text("role", { enum: MEMBER_ROLES }).notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.userId] }), index("workspace_members_user").on(t.userId)],
);

/**
 * An owner's invitation to join a workspace, mailed as a one-time link (domain/users/invitations.ts): only the token's
 * SHA-256 is kept. Pending while neither accepted nor revoked and before it expires.
 */
export const workspaceInvitations = sqliteTable(
  "workspace_invitations",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id").notNull().references(() => workspaces.id),
    /** Lower-cased, as users.email: only the person signed in with this address may accept. */
    email: text("email").notNull(),
    role: text("role", { enum: MEMBER_ROLES }).notNull(),
    tokenHash: text("token_hash").notNull(),
    createdAt: integer("created_at").notNull(),
    expiresAt: integer("expires_at").notNull(),
    acceptedAt: integer("accepted_at"),
    acceptedBy: text("accepted_by"),
    revokedAt: integer("revoked_at"),
  },
  (t) => [uniqueIndex("workspace_invitations_token").on(t.tokenHash), index("workspace_invitations_workspace").on(t.workspaceId, t.createdAt)],
);

export const ACCOUNT_LINK_PURPOSES = ["UNLOCK", "VERIFY_EMAIL"] as const;

/** One-time links mailed to a user (worker/domain/users/account-links.ts): only the token's SHA-256 is kept. */
export const accountLinks = sqliteTable("account_links", {
  tokenHash: text("token_hash").primaryKey(),
  userId: text("user_id").notNull(),
  purpose: text("purpose", { enum: ACCOUNT_LINK_PURPOSES }).notNull(),
  createdAt: integer("created_at").notNull(),
  expiresAt: integer("expires_at").notNull(),
  usedAt: integer("used_at"),
});
