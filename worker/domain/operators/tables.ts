import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

// Timestamps are epoch milliseconds: D1 has no native time type, and integers sort and compare exactly.

export const OPERATOR_ROLES = ["viewer", "support", "admin"] as const;
export type OperatorRole = (typeof OPERATOR_ROLES)[number];

/** A person who runs the service (worker/domain/operators/): an account of its own, never a console user's, signing in with a second factor. */
export const operators = sqliteTable(
  "operators",
  {
    id: text("id").primaryKey(),
    /** Lower-cased. */
    email: text("email").notNull(),
    /** As users' (domain/users/password.ts). */
    passwordHash: text("password_hash").notNull(),
    role: text("role", { enum: OPERATOR_ROLES }).notNull(),
    /** The RFC 6238 secret, sealed by the vault and bound to the operator (domain/operators/second-factor.ts). */
    totpSealed: text("totp_sealed").notNull(),
    /** The time step of the last code accepted: a code opens one session, never a second (RFC 6238 section 5.2). */
    totpLastStep: integer("totp_last_step").notNull().default(0),
    disabledAt: integer("disabled_at"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [uniqueIndex("operators_email").on(t.email)],
);

/** A signed-in operator: the bearer token of /admin/api and the /admin cookie, stored only as its hash. */
export const operatorSessions = sqliteTable(
  "operator_sessions",
  {
    tokenHash: text("token_hash").primaryKey(),
    operatorId: text("operator_id").notNull(),
    createdAt: integer("created_at").notNull(),
    expiresAt: integer("expires_at").notNull(),
  },
  (t) => [index("operator_sessions_operator").on(t.operatorId)],
);

/**
 * What operators did and looked at, written before it takes effect (domain/operators/audit.ts). Append-only: triggers in
 * its migration refuse every UPDATE and DELETE, so not even a bug in our own code can rewrite it.
 */
export const operatorAudit = sqliteTable(
  "operator_audit",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    operatorId: text("operator_id").notNull(),
    /** Kept beside the id: the log reads on its own, whatever later becomes of the account. */
    operatorEmail: text("operator_email").notNull(),
    action: text("action").notNull(),
    targetKind: text("target_kind").notNull(),
    targetId: text("target_id").notNull(),
    /** The operator's words; required for every action that changes something, null for looking. */
    reason: text("reason"),
    /** What the action was given (a new plan, an outage's times), JSON; never a secret. */
    detail: text("detail", { mode: "json" }).$type<Record<string, unknown>>(),
    requestId: text("request_id").notNull(),
    at: integer("at").notNull(),
  },
  (t) => [index("operator_audit_target").on(t.targetKind, t.targetId, t.id), index("operator_audit_operator").on(t.operatorId, t.id)],
);
