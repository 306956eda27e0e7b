import type { ScheduleRow } from "./store";

const iso = (at: number | null) => (at === null ? null : new Date(at).toISOString());

/** A schedule as the API, the console and its webhook event show it. */
export function scheduleView(row: ScheduleRow) {
  return {
    id: row.id,
    providerCode: row.providerCode,
    schema: row.schema,
    credentialId: row.credentialId,
    deliveryRouteId: row.deliveryRouteId,
    cron: row.cron,
    timeZone: "Asia/Seoul" as const,
    params: row.params,
    lastDays: row.lastDays,
    incremental: row.incremental,
    status: row.status,
    pausedReason: row.pausedReason,
    nextRunAt: iso(row.nextRunAt),
    consecutiveFailures: row.consecutiveFailures,
    skippedRuns: row.skippedRuns,
    lastSkippedFor: iso(row.lastSkippedFor),
    createdAt: iso(row.createdAt)!,
  };
}

export type ScheduleView = ReturnType<typeof scheduleView>;
