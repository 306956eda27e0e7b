import { isolateOutbox } from "../../platform/lib/isolate-outbox";
import { log } from "../../platform/observability/telemetry";
import { type AnsweredRequest, byteLength, requestLogEntry } from "./entry";
import type { RequestLogEntry, RequestLogMessage } from "./messages";

/**
 * How long an isolate gathers its answered requests before one queue message takes them all. A message's send and
 * delivery cost the runtime more than the entries it carries: at 50 ms, a client polling a job at 10 connections sent
 * 20 messages a second of one folded entry each, and the log took 0.48 ms of a poll's 5.5 ms of CPU and 1.2 ms of a
 * create's 9.1; at a second, 0.27 and 0.58 (docs/benchmarks.md, stop 73). A second keeps the log "a few seconds"
 * behind the answer, as the consumer's 5 s batch wait already does.
 */
const GATHER_MS = 1000;
/**
 * A queue message holds at most 128 KB, and a consumer's batch (wrangler.toml's max_batch_size, 10 messages) must stay
 * within D1's 1,000 queries an invocation at 7 rows a statement (store.ts): 100 entries a message, at most 100 KB
 * (entries are bounded to a few KB, entry.ts; the UTF-8 bytes are checked).
 */
const MAX_ENTRIES_PER_MESSAGE = 100;
const MAX_MESSAGE_BYTES = 100 * 1024;

/** A send that fails is tried again after these pauses: a queue's brief refusal must not leave a request unlogged. */
const SEND_RETRY_MS = [100, 500];

/** The entries with those of one `collapseKey` (a key's refusals, or its polls answered the same, in a minute) folded into the first one's, counting the others. */
function collapsed(entries: RequestLogEntry[]): RequestLogEntry[] {
  const byKey = new Map<string, RequestLogEntry>();
  const kept: RequestLogEntry[] = [];
  for (const entry of entries) {
    const first = entry.collapseKey ? byKey.get(entry.collapseKey) : undefined;
    if (first) first.repeatCount = (first.repeatCount ?? 1) + (entry.repeatCount ?? 1);
    else {
      if (entry.collapseKey) byKey.set(entry.collapseKey, entry);
      kept.push(entry);
    }
  }
  return kept;
}

/** Consecutive slices of `entries` that each fit one queue message. */
function messagesOf(entries: RequestLogEntry[]): RequestLogMessage[] {
  const messages: RequestLogMessage[] = [];
  let bytes = 0;
  for (const entry of entries) {
    const size = byteLength(JSON.stringify(entry));
    const last = messages.at(-1);
    if (!last || last.length >= MAX_ENTRIES_PER_MESSAGE || bytes + size > MAX_MESSAGE_BYTES) {
      messages.push([entry]);
      bytes = size;
    } else {
      last.push(entry);
      bytes += size;
    }
  }
  return messages;
}

/** The isolate's entries of GATHER_MS, collapsed and sent as few messages as fit (platform/lib/isolate-outbox.ts). */
const gathered = isolateOutbox<Queue<RequestLogMessage>, RequestLogEntry>(GATHER_MS, async (queue, entries) => {
  for (const message of messagesOf(collapsed(entries))) await sendWithRetries(queue, message);
});

/**
 * Puts an answered request on the log's queue. Runs after the answer (the caller hands it to waitUntil), so neither
 * its redaction nor the send is on the request's path. The isolate's requests of the next GATHER_MS go out as one
 * queue message (isolate-outbox.ts): a message per request cost the API a measurable share of its latency under
 * load, even sent together (docs/benchmarks.md, "The request log"). A send that fails is tried again
 * (SEND_RETRY_MS); one that still fails is logged with the request ids it carried and their count
 * (`request-log-send-failed`, for operators' log alerts), which stay unlogged rather than any caller seeing an error
 * for a log.
 */
export async function recordRequest(queue: Queue<RequestLogMessage>, answered: AnsweredRequest): Promise<void> {
  let entry: RequestLogEntry;
  try {
    entry = await requestLogEntry(answered);
  } catch (err) {
    log("error", "request-log-send-failed", { requestIds: [answered.requestId], error: String(err) });
    return;
  }
  await gathered(queue, entry);
}

async function sendWithRetries(queue: Queue<RequestLogMessage>, message: RequestLogMessage): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await queue.send(message, { contentType: "json" });
      return;
    } catch (err) {
      const pause = SEND_RETRY_MS[attempt];
      if (pause === undefined) {
        log("error", "request-log-send-failed", { entries: message.length, requestIds: message.map((entry) => entry.id), attempts: attempt + 1, error: String(err) });
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }
}
