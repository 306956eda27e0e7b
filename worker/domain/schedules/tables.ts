import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { workspaces } from "../workspaces/tables";

// Timestamps are epoch milliseconds: D1 has no native time type, and integers sort and compare exactly.

export const SCHEDULE_STATUSES = ["ACTIVE", "PAUSED"] as const;
export type ScheduleStatus = (typeof SCHEDULE_STATUSES)[number];

/** Recurring collections the service runs itself (worker/domain/schedules/): each occurrence a normal job. */
export const schedules = sqliteTable(
  "schedules",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id").notNull().references(() => workspaces.id),
    providerCode: text("provider_code").notNull(),
    schema: text("schema").notNull(),
    /** The credential each run logs in with; null: the provider's only or default one at each run. */
    credentialId: text("credential_id"),
    /** Five-field cron, in Korean time (domain/schedules/cron.ts). */
    cron: text("cron").notNull(),
    /** The schema's params other than the date range (accounts, cards, currency). */
    params: text("params", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
    /** Dated schemas: each run collects the `lastDays` days ending on its own day (KST). */
    lastDays: integer("last_days"),
    /** Where each run's results go (worker/domain/deliveries/); null: nowhere but the API. */
    deliveryRouteId: text("delivery_route_id"),
    /** Dated schemas: runs after the first succeeded one pass its `since`, collecting only what changed. */
    incremental: integer("incremental", { mode: "boolean" }).notNull().default(false),
    status: text("status", { enum: SCHEDULE_STATUSES }).notNull(),
    /** Why the service paused it (repeated non-retryable failures), in Korean; null when a person paused it or it runs. */
    pausedReason: text("paused_reason"),
    /** The next occurrence to run (ms); null while paused. */
    nextRunAt: integer("next_run_at"),
    /** Runs that ended Failed and not retryable, in a row: at SCHEDULE_FAILURE_LIMIT the schedule pauses itself. */
    consecutiveFailures: integer("consecutive_failures").notNull().default(0),
    /** Occurrences not run because the schedule's previous run was still under way (domain/schedule-runs/run.ts). */
    skippedRuns: integer("skipped_runs").notNull().default(0),
    /** The latest of them (ms); null when none was skipped. */
    lastSkippedFor: integer("last_skipped_for"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [
    index("schedules_workspace").on(t.workspaceId, t.createdAt, t.id),
    index("schedules_due").on(t.status, t.nextRunAt),
    // One ACTIVE schedule per credential and schema (domain/schedules/manage.ts): per named credential, and one for
    // the provider's default credential among those naming none (NULLs never collide in a unique index).
    uniqueIndex("schedules_one_active_per_credential").on(t.workspaceId, t.providerCode, t.schema, t.credentialId).where(sql`status = 'ACTIVE' AND credential_id IS NOT NULL`),
    uniqueIndex("schedules_one_active_per_default").on(t.workspaceId, t.providerCode, t.schema).where(sql`status = 'ACTIVE' AND credential_id IS NULL`),
  ],
);
