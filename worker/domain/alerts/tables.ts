import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

// Timestamps are epoch milliseconds: D1 has no native time type, and integers sort and compare exactly.

/** Operators' alerts on the flagged codes (worker/domain/alerts/): one per code and provider while its rate stays up. */
export const operatorAlerts = sqliteTable(
  "operator_alerts",
  {
    id: text("id").primaryKey(),
    code: text("code").notNull(),
    /** The provider the occurrences were at; `-` for those of no provider (an API request's error). */
    providerCode: text("provider_code").notNull(),
    threshold: integer("threshold").notNull(),
    windowMs: integer("window_ms").notNull(),
    /** Occurrences from the first of the window that opened it, counted while open (a minute behind at most). */
    occurrences: integer("occurrences").notNull(),
    /** One occurrence to start from: a request id or a job id. */
    example: text("example").notNull(),
    openedAt: integer("opened_at").notNull(),
    lastSeenAt: integer("last_seen_at").notNull(),
    resolvedAt: integer("resolved_at"),
  },
  (t) => [index("operator_alerts_opened").on(t.openedAt)],
);
