import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

// Timestamps are epoch milliseconds: D1 has no native time type, and integers sort and compare exactly.

/** What a workspace pays for (worker/domain/workspaces/plans.ts has each one's limits). */
export const PLANS = ["FREE", "PRO", "INTERNAL"] as const;

/** The roles a workspace's members hold (users/tables.ts stores them; roles.ts says what each may do). */
export const MEMBER_ROLES = ["owner", "member"] as const;
export type MemberRole = (typeof MEMBER_ROLES)[number];

export const workspaces = sqliteTable(
  "workspaces",
  {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  businessNumber: text("business_number"),
  plan: text("plan", { enum: PLANS }).notNull().default("FREE"),
  /** Monthly job cap agreed for this workspace; null means its plan's (worker/domain/workspaces/plans.ts). */
  monthlyJobCap: integer("monthly_job_cap"),
  isPartner: integer("is_partner", { mode: "boolean" }).notNull().default(false),
  /** The name a partner shows the businesses it acts for (domain/partners/name.ts); null until it names itself. */
  partnerName: text("partner_name"),
  /**
   * The workspace whose plan caps this one's jobs: a connection workspace's
   * partner, so a partner's cap covers all its businesses. Null: itself.
   */
  billingWorkspaceId: text("billing_workspace_id"),
  /** A self-serve workspace whose owner has not confirmed their e-mail yet: sandbox providers only (workspaces/sandbox-only.ts). */
  sandboxOnly: integer("sandbox_only", { mode: "boolean" }).notNull().default(false),
  /** How many days a finished job's results are kept (docs/retention.md); null: its plan's default. Read capped at the plan's maximum (workspaces/results-retention.ts). */
  resultsRetentionDays: integer("results_retention_days"),
  /** When an operator suspended it (worker/domain/operators/workspace-actions.ts): its keys, its businesses' jobs and its console are refused; null while open. */
  suspendedAt: integer("suspended_at"),
  /** When its plan's renewal charge first failed (worker/domain/billing/renewal.ts); past the grace period no job starts. Null while paid up. */
  pastDueSince: integer("past_due_since"),
  /** How long the consent its credentials' holders give lasts, in days (domain/credentials/consent-record.ts); null: a year. */
  consentDays: integer("consent_days"),
  /**
   * A random stamp drawn again on every change to what a job's create decides from: this row's plan, caps,
   * suspension and payment state, any of its credentials, and its webhook endpoints (whom a job born Failed is
   * announced to). Database triggers draw it, whoever writes
   * (drizzle/0036), so a create may keep what it read and insert only at the revision it read
   * (worker/domain/jobs/create-context.ts).
   */
  revision: integer("revision").notNull().default(0),
  createdAt: integer("created_at").notNull(),
},
  // The operator console finds workspaces by business number (domain/workspaces/store.ts workspacesMatching).
  (t) => [index("workspaces_business_number").on(t.businessNumber)],
);
