import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

// Timestamps are epoch milliseconds: D1 has no native time type, and integers sort and compare exactly.

/** A signed-in browser. */
export const consoleSessions = sqliteTable(
  "console_sessions",
  {
    /** SHA-256 of the cookie's token, hex; the token itself is never stored. */
    tokenHash: text("token_hash").primaryKey(),
    userId: text("user_id").notNull(),
    createdAt: integer("created_at").notNull(),
    expiresAt: integer("expires_at").notNull(),
  },
  (t) => [index("console_sessions_user").on(t.userId)],
);

/** Sign-in attempts in the current window per e-mail address and per client address (domain/console-sessions/login-attempts.ts). */
export const loginAttempts = sqliteTable("login_attempts", {
  /**
   * `ip:<address>` (every attempt), `email:<e-mail>` (failures on the account), `guess:<e-mail>|<address>` (one address's
   * failures on it); `card-…`, `signup-ip:…` likewise; `mail-ws:<workspace>` (mail it had sent, by the day).
   */
  subject: text("subject").primaryKey(),
  windowStartedAt: integer("window_started_at").notNull(),
  attempts: integer("attempts").notNull(),
  lastAttemptAt: integer("last_attempt_at"),
});
