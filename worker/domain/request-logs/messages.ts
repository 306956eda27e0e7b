import type { requestLogs } from "./tables";

/** One answered request, already redacted and bounded (entry.ts): a row of request_logs. */
export type RequestLogEntry = typeof requestLogs.$inferInsert;

/**
 * What travels on the REQUEST_LOGS queue: the entries an isolate gathered (record.ts), many requests a message. A
 * message of a single entry, the shape before messages carried several, is still read (consumer.ts), so a deploy
 * never strands the messages already queued.
 */
export type RequestLogMessage = RequestLogEntry[];
export type QueuedRequestLogMessage = RequestLogMessage | RequestLogEntry;

export const REQUEST_LOG_QUEUE = "collect-request-logs";
