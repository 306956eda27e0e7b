import { and, asc, desc, eq, gt, isNull, lt } from "drizzle-orm";
import { database } from "../../platform/database/client";
import { providerOutages } from "./tables";
import type { MaintenanceWindow } from "./maintenance";

export type OutageRow = typeof providerOutages.$inferSelect;

/** Announced outages one provider shows at most: an operator announces a few, not a calendar's worth. */
export const MAX_UPCOMING_OUTAGES = 20;

export async function announceOutage(d1: D1Database, outage: { providerCode: string; startsAt: number; endsAt: number; note: string; announcedBy: string }, now: number = Date.now()): Promise<OutageRow> {
  const row = { id: crypto.randomUUID(), ...outage, withdrawnAt: null, createdAt: now };
  await database(d1).insert(providerOutages).values(row);
  return row;
}

/** Withdraws an outage still announced; null when the provider has no such outage, or it was withdrawn already. */
export async function withdrawOutage(d1: D1Database, providerCode: string, id: string, now: number = Date.now()): Promise<OutageRow | null> {
  const [row] = await database(d1)
    .update(providerOutages)
    .set({ withdrawnAt: now })
    .where(and(eq(providerOutages.id, id), eq(providerOutages.providerCode, providerCode), isNull(providerOutages.withdrawnAt)))
    .returning();
  return row ?? null;
}

/** The announced outages not yet over, of one provider or of all, soonest first. */
export function upcomingOutageRows(d1: D1Database, now: number, providerCode?: string): Promise<OutageRow[]> {
  return database(d1)
    .select()
    .from(providerOutages)
    .where(and(isNull(providerOutages.withdrawnAt), gt(providerOutages.endsAt, now), providerCode ? eq(providerOutages.providerCode, providerCode) : undefined))
    .orderBy(asc(providerOutages.startsAt))
    .limit(MAX_UPCOMING_OUTAGES * (providerCode ? 1 : 10));
}

/** The same as windows of the maintenance calendar, by provider. */
export async function upcomingOutages(d1: D1Database, now: number, providerCode?: string): Promise<Map<string, MaintenanceWindow[]>> {
  const byProvider = new Map<string, MaintenanceWindow[]>();
  for (const row of await upcomingOutageRows(d1, now, providerCode)) {
    const windows = byProvider.get(row.providerCode) ?? [];
    windows.push({ startsAt: row.startsAt, endsAt: row.endsAt, note: row.note });
    byProvider.set(row.providerCode, windows);
  }
  return byProvider;
}

/** Outages one history shows at most, of all providers: a few a month each, not a flood. */
export const MAX_PAST_OUTAGES = 500;

/** The outages announced (not withdrawn) that touched `from`..`to`, of all providers, latest first: the status page's incidents. */
export function pastOutageRows(d1: D1Database, from: number, to: number): Promise<OutageRow[]> {
  return database(d1)
    .select()
    .from(providerOutages)
    .where(and(isNull(providerOutages.withdrawnAt), gt(providerOutages.endsAt, from), lt(providerOutages.startsAt, to)))
    .orderBy(desc(providerOutages.startsAt))
    .limit(MAX_PAST_OUTAGES);
}
