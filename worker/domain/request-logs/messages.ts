import type { requestLogs } from "./tables";

/** What travels on the REQUEST_LOGS queue: one answered request, already redacted and bounded (entry.ts). */
export type RequestLogMessage = typeof requestLogs.$inferInsert;

export const REQUEST_LOG_QUEUE = "collect-request-logs";
