import { inArray, sql } from "drizzle-orm";
import { database } from "../../platform/database/client";
import { businessStatuses } from "./tables";

export type BusinessStatus = typeof businessStatuses.$inferSelect;

/** The statuses known of `numbers`, by number; a number never asked is absent. */
export async function statusesOf(d1: D1Database, numbers: readonly string[]): Promise<Map<string, BusinessStatus>> {
  if (numbers.length === 0) return new Map();
  const rows = await database(d1).select().from(businessStatuses).where(inArray(businessStatuses.businessNumber, [...numbers])).all();
  return new Map(rows.map((row) => [row.businessNumber, row]));
}

/** Keeps what NTS answered now, replacing what it said before. */
export async function saveStatuses(d1: D1Database, statuses: readonly BusinessStatus[]): Promise<void> {
  if (statuses.length === 0) return;
  await database(d1)
    .insert(businessStatuses)
    .values([...statuses])
    .onConflictDoUpdate({
      target: businessStatuses.businessNumber,
      set: { registered: sql`excluded.registered`, statusCode: sql`excluded.status_code`, status: sql`excluded.status`, closureDate: sql`excluded.closure_date`, checkedAt: sql`excluded.checked_at` },
    });
}
