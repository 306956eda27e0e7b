import { and, desc, eq, isNull } from "drizzle-orm";
import { database } from "../../platform/database/client";
import { operatorAlerts } from "./tables";

export type AlertRow = typeof operatorAlerts.$inferSelect;

export async function openAlert(d1: D1Database, alert: Omit<AlertRow, "resolvedAt">): Promise<void> {
  await database(d1).insert(operatorAlerts).values({ ...alert, resolvedAt: null });
}

/** The occurrences counted so far of an alert still open, and the latest one's time. */
export async function countAlert(d1: D1Database, id: string, occurrences: number, lastSeenAt: number): Promise<void> {
  await database(d1).update(operatorAlerts).set({ occurrences, lastSeenAt }).where(and(eq(operatorAlerts.id, id), isNull(operatorAlerts.resolvedAt)));
}

export async function resolveAlert(d1: D1Database, id: string, occurrences: number, at: number): Promise<void> {
  await database(d1).update(operatorAlerts).set({ occurrences, resolvedAt: at }).where(eq(operatorAlerts.id, id));
}

/** The latest alerts, open ones first: what the operator console shows. */
export function latestAlerts(d1: D1Database, limit: number): Promise<AlertRow[]> {
  return database(d1)
    .select()
    .from(operatorAlerts)
    .orderBy(desc(isNull(operatorAlerts.resolvedAt)), desc(operatorAlerts.openedAt))
    .limit(limit);
}
