import { integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

// Timestamps are epoch milliseconds: D1 has no native time type, and integers sort and compare exactly.

export const DEVICE_CODE_STATUSES = ["PENDING", "APPROVED", "DENIED", "CONSUMED"] as const;

/** An RFC 8628 device authorization: a command-line client waits on it until a signed-in user approves it. */
export const deviceCodes = sqliteTable(
  "device_codes",
  {
    /** SHA-256 of the device code the client polls with; the code itself is never stored. */
    deviceCodeHash: text("device_code_hash").primaryKey(),
    /** SHA-256 of the normalized user code (letters only, upper case) the user types into the console. */
    userCodeHash: text("user_code_hash").notNull(),
    clientName: text("client_name").notNull(),
    /** The platform the client says it runs on (RFC 8628 has no field for it; ours), shown on the approval page. */
    platform: text("platform"),
    status: text("status", { enum: DEVICE_CODE_STATUSES }).notNull().default("PENDING"),
    /** Seconds the client must wait between polls; raised by 5 on every slow_down. */
    intervalSeconds: integer("interval_seconds").notNull(),
    lastPolledAt: integer("last_polled_at"),
    /** Set on approval: the workspace the client's key is for and who approved it. */
    workspaceId: text("workspace_id"),
    approvedBy: text("approved_by"),
    createdAt: integer("created_at").notNull(),
    expiresAt: integer("expires_at").notNull(),
  },
  (t) => [uniqueIndex("device_codes_user_code").on(t.userCodeHash)],
);
