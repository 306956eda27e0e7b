import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

// Timestamps are epoch milliseconds: D1 has no native time type, and integers sort and compare exactly.

/**
 * Where the rotation's walk of each sealed store stands (domain/key-rotation/walks.ts): the rows are walked in key order
 * past a cursor, so a row that cannot be re-wrapped is passed over, and a store whose walk has settled is not read again
 * until the keyring changes. One row per store of key-rotation/rewrap.ts STORES.
 */
export const rewrapWalks = sqliteTable("rewrap_walks", {
  store: text("store").primaryKey(),
  /** The keyring's versions the walk moves rows under ("1,2"): another keyring starts another walk. */
  keyring: text("keyring").notNull(),
  /** When the first run saw this keyring. */
  since: integer("since").notNull(),
  /** When the current pass started from the first row. */
  passStartedAt: integer("pass_started_at").notNull(),
  /** The key of the last row the pass has passed; null: from the first. */
  after: text("after"),
  /** The pass has reached the last row. */
  passDone: integer("pass_done", { mode: "boolean" }).notNull().default(false),
});
