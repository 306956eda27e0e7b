import { workspacePlans } from "../workspaces/store";
import { log } from "../../platform/observability/telemetry";
import { kstDate } from "../../../contracts/korean-time";
import { dayKey, withinBudget } from "./budget";
import type { QueuedRequestLogMessage, RequestLogEntry } from "./messages";
import { dayUses, insertRequestLogs } from "./store";

const entriesOf = (body: QueuedRequestLogMessage): RequestLogEntry[] => (Array.isArray(body) ? body : [body]);

/**
 * The REQUEST_LOGS queue handler: the requests of a batch's messages that fit their workspace's daily budget
 * (budget.ts), and what each day took, in one D1 batch. A failed write is retried whole (the rows are idempotent by
 * request id); after the queue's retries a batch goes to the dead-letter queue, never back to a request.
 */
export async function consumeRequestLogBatch(batch: MessageBatch<QueuedRequestLogMessage>, d1: D1Database): Promise<void> {
  try {
    const entries = batch.messages.flatMap((message) => entriesOf(message.body));
    const days = new Map(entries.map((e) => [dayKey(e.workspaceId, kstDate(e.createdAt)), { workspaceId: e.workspaceId, day: kstDate(e.createdAt) }]));
    const [used, plans] = await Promise.all([dayUses(d1, [...days.values()]), workspacePlans(d1, [...new Set(entries.map((e) => e.workspaceId))])]);
    const { kept, days: deltas } = withinBudget(entries, used, plans);
    await insertRequestLogs(d1, kept, deltas);
    const omitted = deltas.reduce((n, d) => n + d.omitted, 0);
    if (omitted > 0) log("warn", "request-log-budget-spent", { omitted, workspaces: deltas.filter((d) => d.omitted > 0).map((d) => d.workspaceId) });
    batch.ackAll();
  } catch (err) {
    log("error", "request-log-write-failed", { messages: batch.messages.length, error: String(err) });
    batch.retryAll();
  }
}
