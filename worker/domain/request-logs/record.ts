import { log } from "../../platform/observability/telemetry";
import { type AnsweredRequest, requestLogEntry } from "./entry";
import type { RequestLogMessage } from "./messages";

/** How long an isolate gathers its answered requests before one queue call takes them all. */
const GATHER_MS = 50;
/** Queues takes at most 100 messages and 256 KB a sendBatch call; entries are bounded (entry.ts), the bytes are checked. */
const MAX_MESSAGES = 100;
const MAX_BATCH_BYTES = 200 * 1024;

interface Outbox {
  pending: RequestLogMessage[];
  gathering: boolean;
}

/** One outbox per queue binding an isolate holds (a test may hand the app a queue of its own). */
const outboxes = new WeakMap<Queue<RequestLogMessage>, Outbox>();

function outboxOf(queue: Queue<RequestLogMessage>): Outbox {
  let box = outboxes.get(queue);
  if (!box) outboxes.set(queue, (box = { pending: [], gathering: false }));
  return box;
}

/** Consecutive slices of `entries` that each fit one sendBatch call. */
function batchesOf(entries: RequestLogMessage[]): RequestLogMessage[][] {
  const batches: RequestLogMessage[][] = [];
  let bytes = 0;
  for (const entry of entries) {
    const size = JSON.stringify(entry).length;
    const last = batches.at(-1);
    if (!last || last.length >= MAX_MESSAGES || bytes + size > MAX_BATCH_BYTES) {
      batches.push([entry]);
      bytes = size;
    } else {
      last.push(entry);
      bytes += size;
    }
  }
  return batches;
}

/**
 * Puts an answered request on the log's queue. Runs after the answer (the caller hands it to waitUntil), so neither
 * its redaction nor the send is on the request's path. The isolate's requests of the next GATHER_MS go out in one
 * sendBatch, sent by the request that found no gathering under way (its waitUntil lasts until they are sent; the
 * others hand their entry over and are done, awaiting nothing of another request's). A one-message send per request
 * cost the API a measurable share of its latency under load (docs/benchmarks.md, "Stop 49"). A send that fails is
 * logged with the request ids it carried, which stay unlogged rather than any caller seeing an error for a log.
 */
export async function recordRequest(queue: Queue<RequestLogMessage>, answered: AnsweredRequest): Promise<void> {
  const box = outboxOf(queue);
  try {
    box.pending.push(await requestLogEntry(answered));
  } catch (err) {
    log("error", "request-log-send-failed", { requestIds: [answered.requestId], error: String(err) });
    return;
  }
  if (box.gathering) return;
  box.gathering = true;
  await new Promise((resolve) => setTimeout(resolve, GATHER_MS));
  box.gathering = false;
  for (const batch of batchesOf(box.pending.splice(0))) {
    try {
      await queue.sendBatch(batch.map((body) => ({ body, contentType: "json" as const })));
    } catch (err) {
      log("error", "request-log-send-failed", { requestIds: batch.map((entry) => entry.id), error: String(err) });
    }
  }
}
