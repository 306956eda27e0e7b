import { and, asc, gte, inArray } from "drizzle-orm";
import { DAY_MS, kstDate } from "../../../contracts/korean-time";
import { database } from "../../platform/database/client";
import { type OutageRow, pastOutageRows } from "./outages";
import { type ProviderState, providerState } from "./status";
import { firstShown, HISTORY_DAYS } from "./provider-days";
import { providerDays } from "./tables";

/** One Korean day of a provider: NO_DATA when no job ended and no outage was announced for it. */
export interface HistoryDay {
  day: string;
  state: ProviderState | "NO_DATA";
  ended: number;
  successRate: number | null;
  outages: OutageRow[];
}

/**
 * Each provider's last HISTORY_DAYS Korean days, oldest first, and the outages announced in them (newest first):
 * a day's state is the live status's rule (providerState) applied to the day's jobs, MAINTENANCE when an announced
 * outage touched it. Two queries for every provider together.
 */
export async function providerHistory(d1: D1Database, providerCodes: readonly string[], now: number = Date.now()): Promise<Map<string, { days: HistoryDay[]; incidents: OutageRow[] }>> {
  const from = firstShown(now);
  const [counts, outages] = await Promise.all([
    database(d1)
      .select()
      .from(providerDays)
      .where(and(inArray(providerDays.providerCode, [...providerCodes]), gte(providerDays.day, kstDate(from))))
      .orderBy(asc(providerDays.day)),
    pastOutageRows(d1, from, now),
  ]);
  const countOf = new Map(counts.map((c) => [`${c.providerCode} ${c.day}`, c]));
  const history = new Map<string, { days: HistoryDay[]; incidents: OutageRow[] }>();
  for (const code of providerCodes) {
    const incidents = outages.filter((o) => o.providerCode === code);
    const days = Array.from({ length: HISTORY_DAYS }, (_, i): HistoryDay => {
      const start = from + i * DAY_MS;
      const day = kstDate(start);
      const count = countOf.get(`${code} ${day}`);
      const touched = incidents.filter((o) => o.startsAt < start + DAY_MS && o.endsAt > start);
      const ended = count?.ended ?? 0;
      const successRate = count && count.counted > 0 ? Math.round((count.succeeded / count.counted) * 1000) / 1000 : null;
      const window = { jobs: ended, successRate, medianDurationMs: null };
      const state = ended === 0 && touched.length === 0 ? "NO_DATA" : providerState({ lastHour: window, lastDay: window }, touched.length > 0);
      return { day, state, ended, successRate, outages: touched };
    });
    history.set(code, { days, incidents });
  }
  return history;
}
