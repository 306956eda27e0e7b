import { log } from "../../platform/observability/telemetry";
import { type AnsweredRequest, requestLogEntry } from "./entry";
import type { RequestLogMessage } from "./messages";

/**
 * Puts an answered request on the log's queue. Runs after the answer (the caller hands it to waitUntil), so neither
 * its redaction nor the send is on the request's path; a send that fails is logged and the request stays unlogged
 * rather than the caller seeing an error for a log.
 */
export async function recordRequest(queue: Queue<RequestLogMessage>, answered: AnsweredRequest): Promise<void> {
  try {
    await queue.send(await requestLogEntry(answered), { contentType: "json" });
  } catch (err) {
    log("error", "request-log-send-failed", { requestId: answered.requestId, error: String(err) });
  }
}
