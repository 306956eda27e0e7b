import { sql } from "drizzle-orm";
import { DAY_MS, kstDate, kstMidnight } from "../../../contracts/korean-time";
import { database } from "../../platform/database/client";
import { deleteBatch } from "../../platform/database/delete-batch";
import { providerDays } from "./tables";

/** The days the status page's history shows, today the last: as many as partners know from other services' status pages. */
export const HISTORY_DAYS = 90;

/** Counts one ended job toward its provider's Korean day; `ok` as the pulse takes it (null: the user's side's failure). */
export async function countProviderDay(d1: D1Database, providerCode: string, ok: boolean | null, at: number): Promise<void> {
  const row = { providerCode, day: kstDate(at), ended: 1, counted: ok === null ? 0 : 1, succeeded: ok ? 1 : 0 };
  await database(d1)
    .insert(providerDays)
    .values(row)
    .onConflictDoUpdate({
      target: [providerDays.providerCode, providerDays.day],
      set: { ended: sql`${providerDays.ended} + 1`, counted: sql`${providerDays.counted} + excluded.counted`, succeeded: sql`${providerDays.succeeded} + excluded.succeeded` },
    });
}

/** The first Korean midnight the history shows. */
export const firstShown = (now: number) => kstMidnight(now) - (HISTORY_DAYS - 1) * DAY_MS;

/** The day rows older than the history shows (the retention cron's). */
export function purgeOldProviderDays(d1: D1Database, limit: number, now: number = Date.now()): Promise<number> {
  return deleteBatch(d1, "provider_days", "day < ?", [kstDate(firstShown(now))], limit);
}

