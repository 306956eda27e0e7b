import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";

// Timestamps are epoch milliseconds: D1 has no native time type, and integers sort and compare exactly.

/** An institution's outage announced by an operator: part of its maintenance calendar (domain/catalog/outages.ts) until it ends or is withdrawn. */
export const providerOutages = sqliteTable(
  "provider_outages",
  {
    id: text("id").primaryKey(),
    providerCode: text("provider_code").notNull(),
    startsAt: integer("starts_at").notNull(),
    endsAt: integer("ends_at").notNull(),
    /** Shown to partners with the window, in Korean. */
    note: text("note").notNull(),
    announcedBy: text("announced_by").notNull(),
    withdrawnAt: integer("withdrawn_at"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("provider_outages_provider").on(t.providerCode, t.endsAt)],
);

/**
 * How a provider's jobs ended on one Korean day, counted as each ends (domain/catalog/history.ts): the status page's
 * 90-day history, which the pulse's minute rows (a day long) cannot give. One row per provider and day.
 */
export const providerDays = sqliteTable(
  "provider_days",
  {
    providerCode: text("provider_code").notNull(),
    /** The KST date, YYYY-MM-DD. */
    day: text("day").notNull(),
    /** Jobs that ended, the user's side's failures included. */
    ended: integer("ended").notNull(),
    /** Those that ended for the institution's or our reasons: what the success rate counts. */
    counted: integer("counted").notNull(),
    succeeded: integer("succeeded").notNull(),
  },
  (t) => [primaryKey({ columns: [t.providerCode, t.day] }), index("provider_days_day").on(t.day)],
);
