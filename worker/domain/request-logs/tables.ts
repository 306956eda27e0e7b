import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

// Timestamps are epoch milliseconds: D1 has no native time type, and integers sort and compare exactly.

/**
 * One answered /api/v1 request of a workspace's API key, kept REQUEST_LOG_RETENTION_MS (store.ts). Written in
 * batches by the REQUEST_LOGS queue's consumer, never on the request's path (docs/request-logs.md). No foreign keys:
 * a row outlives the key it names, and the writer must not fail on a workspace or key removed meanwhile. Stored
 * WITHOUT ROWID since drizzle/0053 (drizzle cannot declare it): the table is its primary key's index, one row written
 * fewer a request.
 */
export const requestLogs = sqliteTable(
  "request_logs",
  {
    /** The request's id, the X-Request-Id the caller got: unique, so a queue message delivered twice writes one row. */
    id: text("id").primaryKey(),
    /** The calling key's own workspace, whichever business a partner selected. */
    workspaceId: text("workspace_id").notNull(),
    apiKeyId: text("api_key_id").notNull(),
    /** The key's first characters, as the keys list shows them; never more of the secret. */
    apiKeyPrefix: text("api_key_prefix").notNull(),
    method: text("method").notNull(),
    path: text("path").notNull(),
    status: integer("status").notNull(),
    /** The error envelope's `code`; null for a success. */
    errorCode: text("error_code"),
    latencyMs: integer("latency_ms").notNull(),
    idempotencyKey: text("idempotency_key"),
    /** The query and the JSON body as redacted (redaction.ts); null when there was none or it was not JSON. */
    query: text("query", { mode: "json" }).$type<Record<string, unknown>>(),
    body: text("body", { mode: "json" }).$type<unknown>(),
    /** The error envelope the caller got, redacted the same way. */
    errorBody: text("error_body", { mode: "json" }).$type<unknown>(),
    /** When the request arrived. */
    createdAt: integer("created_at").notNull(),
    /**
     * A 429's key and minute (`<api key id>:<minute start>`): the refusals of one key in one minute are one row, the
     * first one's, counting the rest; a job's poll answered 200 adds a hash of what was asked and answered, so its
     * polls answered the same in a minute are one row (entry.ts); null for every other answer.
     */
    collapseKey: text("collapse_key"),
    /** How many requests the row stands for: 1, or a folded row's requests in its minute. */
    repeatCount: integer("repeat_count").notNull().default(1),
  },
  // D1 bills each index an insert touches as a row written (docs/costs.md): the folds' unique key covers only the rows
  // that have one, so a request answered once writes no entry there. The purge walks the workspace index, one workspace
  // at a time from its days' counters (store.ts), rather than an index of its own on created_at.
  (t) => [
    index("request_logs_workspace").on(t.workspaceId, t.createdAt, t.id),
    uniqueIndex("request_logs_collapse_key").on(t.collapseKey).where(sql`collapse_key IS NOT NULL`),
  ],
);

export type RequestLogRow = typeof requestLogs.$inferSelect;

/**
 * What a workspace's log took in one KST day: the bytes and rows stored against its plan's budget
 * (workspaces/plans.ts PLAN_REQUEST_LOG), and the requests left out once the budget was spent (docs/request-logs.md).
 * Every request_logs row has its day's row (store.ts writes both), kept until no row of the workspace is past the
 * retention: the purge finds a workspace's old rows through it.
 */
export const requestLogDays = sqliteTable(
  "request_log_days",
  {
    workspaceId: text("workspace_id").notNull(),
    /** The KST date, YYYY-MM-DD. */
    day: text("day").notNull(),
    bytes: integer("bytes").notNull(),
    rows: integer("rows").notNull(),
    omitted: integer("omitted").notNull(),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.day] }), index("request_log_days_day").on(t.day)],
);
