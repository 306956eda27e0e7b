import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { workspaces } from "../workspaces/tables";

// Timestamps are epoch milliseconds: D1 has no native time type, and integers sort and compare exactly.

export const apiKeys = sqliteTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id").notNull().references(() => workspaces.id),
    name: text("name").notNull(),
    /** First characters of the key, shown in listings so a key can be recognised without revealing it. */
    prefix: text("prefix").notNull(),
    /** SHA-256 of the whole key, hex. The key itself is never stored. */
    hash: text("hash").notNull(),
    createdAt: integer("created_at").notNull(),
    expiresAt: integer("expires_at"),
    revokedAt: integer("revoked_at"),
    /** May list, issue and revoke the workspace's keys. */
    canManageKeys: integer("can_manage_keys", { mode: "boolean" }).notNull().default(false),
    /** Issued to a command-line client through the device grant (it expires; the console marks it). */
    deviceIssued: integer("device_issued", { mode: "boolean" }).notNull().default(false),
    /** The person a device-grant key acts for: it is revoked when they leave the workspace (domain/users/members.ts). Null for the workspace's own keys. */
    issuedToUserId: text("issued_to_user_id"),
    /**
     * The person who made the key: the owner on the console's keys page, the approver of a device grant; a key made
     * through the API inherits its maker key's. Their managing keys are revoked when they leave the workspace or stop
     * owning it (domain/users/members.ts). Null for keys no person made (the demo seed, tests) and those made before.
     */
    issuedByUserId: text("issued_by_user_id"),
  },
  (t) => [uniqueIndex("api_keys_hash").on(t.hash), index("api_keys_workspace").on(t.workspaceId)],
);
