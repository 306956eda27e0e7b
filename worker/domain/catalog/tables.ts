import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

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
