import { isoTime, isoTimeOrNull } from "../../platform/lib/iso-time";
import type { ScheduleRow } from "./store";

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
    nextRunAt: isoTimeOrNull(row.nextRunAt),
    consecutiveFailures: row.consecutiveFailures,
    skippedRuns: row.skippedRuns,
    lastSkippedFor: isoTimeOrNull(row.lastSkippedFor),
    createdAt: isoTime(row.createdAt),
  };
}

export type ScheduleView = ReturnType<typeof scheduleView>;
