import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { workspaces } from "../workspaces/tables";
import type { StoredUnit } from "../results/unit-results";

// Timestamps are epoch milliseconds: D1 has no native time type, and integers sort and compare exactly.

export const JOB_STATUSES = ["PENDING", "RUNNING", "SUCCEEDED", "FAILED"] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

/** Why a job's results were deleted before their expiry (docs/retention.md). */
export const RESULTS_DELETION_REASONS = ["REQUESTED", "CREDENTIAL_DELETED"] as const;
export type ResultsDeletionReason = (typeof RESULTS_DELETION_REASONS)[number];

export const jobs = sqliteTable(
  "jobs",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id").notNull().references(() => workspaces.id),
    /** The workspace whose monthly cap the job counts against (see workspaces.billingWorkspaceId), copied at insert so the cap is counted within this table. */
    billingWorkspaceId: text("billing_workspace_id"),
    providerCode: text("provider_code").notNull(),
    schema: text("schema").notNull(),
    params: text("params", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
    status: text("status", { enum: JOB_STATUSES }).notNull(),
    credentialId: text("credential_id"),
    completedTaskCount: integer("completed_task_count").notNull().default(0),
    totalTaskCount: integer("total_task_count").notNull().default(0),
    recordCount: integer("record_count").notNull().default(0),
    /** The spec's job error object, set only when status is FAILED. */
    error: text("error", { mode: "json" }).$type<import("../../../contracts/job-failures").JobError>(),
    /** Automatic resumptions so far; drives backoff. */
    attempt: integer("attempt").notNull().default(0),
    /** The credential lease's fence of the job's latest grant: a unit commits only under the newest fence of its credential. */
    leaseFence: integer("lease_fence").notNull().default(0),
    /** When the sweep sent the plan of a job still PENDING again (its first plan message may be lost); it does so once. */
    planResentAt: integer("plan_resent_at"),
    /** While the job waits for its credential behind others: how many are ahead of it (domain/pipeline/credential-lock.ts); null otherwise. */
    queuePosition: integer("queue_position"),
    /** While the job waits out its provider's maintenance window (domain/pipeline/executor.ts): when it goes on; null otherwise. */
    resumesAt: integer("resumes_at"),
    /**
     * While the job waits for its credential's holder to approve the login on their phone (간편인증,
     * domain/pipeline/executor.ts): the app asked and until when; null otherwise.
     */
    awaitingHolder: text("awaiting_holder", { mode: "json" }).$type<import("../../../contracts/task-unit").HolderApproval>(),
    /** An incremental job's base (params.since): its results are the changes since that job's collection (domain/results/changes.ts). */
    sinceJobId: text("since_job_id"),
    /** Set when an incremental job succeeds: the R2 object of its changes and where their CSV rows start. */
    changesResultId: text("changes_result_id"),
    changesCsvOffset: integer("changes_csv_offset"),
    /** Where its results go once it succeeds (worker/domain/deliveries/); null: nowhere but the API. */
    deliveryRouteId: text("delivery_route_id"),
    /** A schedule's run (domain/schedule-runs/run.ts): the schedule and the occurrence it ran for, one job per occurrence. */
    scheduleId: text("schedule_id"),
    scheduledFor: integer("scheduled_for"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
    /** createdAt + maxWaitSeconds: past it the sweep fails the job with JOB_TIMEOUT. */
    deadlineAt: integer("deadline_at").notNull(),
    finishedAt: integer("finished_at"),
    /**
     * When its results stop being served (docs/retention.md): set when it finishes, to its finish plus its workspace's
     * retention then; moved to the moment of an earlier deletion. Null while it runs.
     */
    resultsExpireAt: integer("results_expire_at"),
    /** Why its results went before their time: deleted on request, or with the credential that collected them; null otherwise. */
    resultsDeletedReason: text("results_deleted_reason", { enum: RESULTS_DELETION_REASONS }),
    /** When the cron (or a deletion) removed its stored results and its units' rows; null while they are still stored. */
    resultsPurgedAt: integer("results_purged_at"),
  },
  (t) => [
    index("jobs_workspace_created").on(t.workspaceId, t.createdAt, t.id),
    index("jobs_status_deadline").on(t.status, t.deadlineAt),
    index("jobs_credential_fence").on(t.credentialId, t.leaseFence),
    index("jobs_billing_created").on(t.billingWorkspaceId, t.createdAt),
    // The plan's concurrent-job and concurrent-scheduled-job counts, checked inside each insert (store.ts INSERT_JOB).
    index("jobs_billing_status").on(t.billingWorkspaceId, t.status),
    // The cron's expired results still stored (domain/jobs/results-rows.ts resultsDue): only those, so the index stays small.
    index("jobs_results_due").on(t.resultsExpireAt).where(sql`results_purged_at IS NULL AND results_expire_at IS NOT NULL`),
    uniqueIndex("jobs_schedule_occurrence").on(t.scheduleId, t.scheduledFor).where(sql`schedule_id IS NOT NULL`),
  ],
);

export const idempotencyKeys = sqliteTable(
  "idempotency_keys",
  {
    workspaceId: text("workspace_id").notNull(),
    key: text("key").notNull(),
    /** SHA-256 of the canonical request, to tell a retry from a different request. */
    requestHash: text("request_hash").notNull(),
    jobId: text("job_id").notNull(),
    createdAt: integer("created_at").notNull(),
    expiresAt: integer("expires_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.key] }), index("idempotency_expires").on(t.expiresAt)],
);

export const UNIT_STATUSES = ["QUEUED", "DONE"] as const;

/** What a unit's commit wrote into its plan entry: where its stored records lie, and when it was committed. */
export type CommittedUnit = StoredUnit & { at: number };

/** What one planned unit collects: the target (an account, a card) and the period, each null where the schema has none. */
export interface PlanEntry {
  targetId: string | null;
  targetAttributes: Record<string, string> | null;
  segmentStart: string | null;
  segmentEnd: string | null;
  /** Set by the unit's commit (plan-commits.ts); absent while its records are still to collect. */
  committed?: CommittedUnit;
}

// A job's units as planned and as committed, one row a job (its units' entries in unit order, a unit's index its
// place): planning writes one row where a row a unit would write one each, and each commit updates that row, its
// units' entries marked `committed`, one row written a commit whatever its units (docs/pipeline.md, "Units committed
// together"). Stored WITHOUT ROWID since drizzle/0051 (drizzle cannot declare it): one row written, not two with the
// primary key's index; an update leaves its key alone, so it writes one row too.
export const jobPlans = sqliteTable("job_plans", {
  jobId: text("job_id").primaryKey().references(() => jobs.id),
  units: text("units", { mode: "json" }).$type<PlanEntry[]>().notNull(),
});

// A unit's row, as units were committed before their commits went into the plan (stop 68): written QUEUED at planning
// before drizzle/0051 and updated DONE by the unit's commit (such a job has no plan, so its commits still do so), or,
// from drizzle/0051 to stop 68, written DONE by the commit with what the plan named. Stored WITHOUT ROWID
// since drizzle/0034 (drizzle cannot declare it): the table is its primary key's index, so D1 counts one row written
// per unit, not two (docs/costs.md).
export const taskUnits = sqliteTable(
  "task_units",
  {
    jobId: text("job_id").notNull().references(() => jobs.id),
    unitIndex: integer("unit_index").notNull(),
    targetId: text("target_id"),
    targetAttributes: text("target_attributes", { mode: "json" }).$type<Record<string, string>>(),
    segmentStart: text("segment_start"),
    segmentEnd: text("segment_end"),
    status: text("status", { enum: UNIT_STATUSES }).notNull().default("QUEUED"),
    recordCount: integer("record_count"),
    // The R2 object holding the committed records (every store writes a new one, so a stale delivery's late write
    // cannot touch them; none for a unit without records), set with DONE. Units committed together share one object,
    // named for the first of them (`result_unit`; null in rows from before: the unit's own), all their NDJSON lines
    // and then all their CSV rows, in unit order: a unit's lines lie at [json_offset, json_end) and its rows at
    // [csv_offset, csv_end) (in rows from before, its lines end where its rows start, and its rows at the object's end).
    resultId: text("result_id"),
    resultUnit: integer("result_unit"),
    jsonOffset: integer("json_offset").notNull().default(0),
    jsonEnd: integer("json_end"),
    csvOffset: integer("csv_offset"),
    csvEnd: integer("csv_end"),
    attempts: integer("attempts").notNull().default(0),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.jobId, t.unitIndex] })],
);
