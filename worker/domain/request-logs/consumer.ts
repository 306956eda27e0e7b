import { log } from "../../platform/observability/telemetry";
import type { RequestLogMessage } from "./messages";
import { insertRequestLogs } from "./store";

/**
 * The REQUEST_LOGS queue handler: a batch's requests in one D1 batch. A failed write is retried whole (the rows are
 * idempotent by request id); after the queue's retries a batch goes to the dead-letter queue, never back to a request.
 */
export async function consumeRequestLogBatch(batch: MessageBatch<RequestLogMessage>, d1: D1Database): Promise<void> {
  try {
    await insertRequestLogs(d1, batch.messages.map((message) => message.body));
    batch.ackAll();
  } catch (err) {
    log("error", "request-log-write-failed", { messages: batch.messages.length, error: String(err) });
    batch.retryAll();
  }
}
