import { log } from "../../platform/observability/telemetry";
import type { QueuedRequestLogMessage, RequestLogEntry } from "./messages";
import { insertRequestLogs } from "./store";

const entriesOf = (body: QueuedRequestLogMessage): RequestLogEntry[] => (Array.isArray(body) ? body : [body]);

/**
 * The REQUEST_LOGS queue handler: the requests of a batch's messages in one D1 batch. A failed write is retried whole
 * (the rows are idempotent by request id); after the queue's retries a batch goes to the dead-letter queue, never back
 * to a request.
 */
export async function consumeRequestLogBatch(batch: MessageBatch<QueuedRequestLogMessage>, d1: D1Database): Promise<void> {
  try {
    await insertRequestLogs(d1, batch.messages.flatMap((message) => entriesOf(message.body)));
    batch.ackAll();
  } catch (err) {
    log("error", "request-log-write-failed", { messages: batch.messages.length, error: String(err) });
    batch.retryAll();
  }
}
