import { and, desc, eq, lt, sql } from "drizzle-orm";
import { database } from "../../platform/database/client";
import { type WebhookAttempt, type WebhookDeliveryStatus, webhookDeliveries } from "./tables";
import { ApiError } from "../../platform/errors/api-error";
import { type CursorPosition, pastPosition } from "../../platform/database/cursor";
import { deleteBatch } from "../../platform/database/delete-batch";

export type DeliveryRow = typeof webhookDeliveries.$inferSelect;

/** Retries stop this long after the event (or after a replay). */
const RETRY_WINDOW_MS = 24 * 60 * 60_000;
/** The delivery log keeps this many latest attempts of a delivery. */
export const MAX_LOGGED_ATTEMPTS = 50;
/** A PENDING delivery whose next attempt is this far overdue lost its queue message: the sweep sends it again. */
const STALLED_AFTER_MS = 15 * 60_000;

const deliveryNotFound = () => new ApiError("RESOURCE_NOT_FOUND", { message: "웹훅 전송 기록을 찾을 수 없습니다. id를 확인해 주세요." });

export interface NewDelivery {
  endpointId: string;
  workspaceId: string;
  eventId: string;
  eventType: string;
  payload: string;
}

export async function insertDeliveries(d1: D1Database, deliveries: NewDelivery[], now: number): Promise<DeliveryRow[]> {
  const rows: DeliveryRow[] = deliveries.map((d) => ({
    ...d,
    id: crypto.randomUUID(),
    status: "PENDING",
    attemptCount: 0,
    attempts: [],
    nextAttemptAt: now,
    retryUntil: now + RETRY_WINDOW_MS,
    createdAt: now,
    updatedAt: now,
  }));
  if (rows.length > 0) await database(d1).insert(webhookDeliveries).values(rows);
  return rows;
}

/** A page of an endpoint's delivery log, newest first; one more than `limit` tells there is a next page. */
export function listDeliveries(d1: D1Database, endpointId: string, limit: number, after?: CursorPosition): Promise<DeliveryRow[]> {
  return database(d1)
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.endpointId, endpointId), pastPosition(webhookDeliveries.createdAt, webhookDeliveries.id, after)))
    .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
    .limit(limit + 1)
    .all();
}

/**
 * Claims the next attempt of a delivery still PENDING, when the message
 * expected exactly `attemptCount` attempts before it: a duplicate or
 * outdated message claims nothing and sends nothing.
 */
export async function claimAttempt(d1: D1Database, id: string, attemptCount: number, now: number): Promise<DeliveryRow | null> {
  const [row] = await database(d1)
    .update(webhookDeliveries)
    .set({ attemptCount: attemptCount + 1, updatedAt: now })
    .where(and(eq(webhookDeliveries.id, id), eq(webhookDeliveries.status, "PENDING"), eq(webhookDeliveries.attemptCount, attemptCount)))
    .returning();
  return row ?? null;
}

/**
 * Logs an attempt and what follows it: SUCCEEDED, FAILED for good, or
 * PENDING until `nextAttemptAt`. The attempt is appended in SQL, so
 * attempts finishing side by side (a replay during a retry) all stay in the log.
 */
export async function recordAttempt(
  d1: D1Database,
  id: string,
  attempt: Omit<WebhookAttempt, "nextAttemptAt">,
  next: { status: WebhookDeliveryStatus; nextAttemptAt: number | null },
): Promise<void> {
  const { attempts } = webhookDeliveries;
  const logged = JSON.stringify({ ...attempt, nextAttemptAt: next.nextAttemptAt });
  await database(d1)
    .update(webhookDeliveries)
    .set({
      attempts: sql`json_insert(CASE WHEN json_array_length(${attempts}) >= ${MAX_LOGGED_ATTEMPTS} THEN json_remove(${attempts}, '$[0]') ELSE ${attempts} END, '$[#]', json(${logged}))`,
      status: next.status,
      nextAttemptAt: next.nextAttemptAt,
      updatedAt: attempt.at,
    })
    .where(eq(webhookDeliveries.id, id));
}

/**
 * Sends a delivery again, whatever became of it: PENDING from now, with a
 * fresh retry window. Returns the row to enqueue (its attempt count is what
 * the queued message expects).
 */
export async function replayDelivery(d1: D1Database, endpointId: string, id: string, now: number): Promise<DeliveryRow> {
  const [row] = await database(d1)
    .update(webhookDeliveries)
    .set({ status: "PENDING", nextAttemptAt: now, retryUntil: now + RETRY_WINDOW_MS, updatedAt: now })
    .where(and(eq(webhookDeliveries.id, id), eq(webhookDeliveries.endpointId, endpointId)))
    .returning();
  if (!row) throw deliveryNotFound();
  return row;
}

/** PENDING deliveries whose attempt is long overdue: their queue message was lost (a failed send, a dropped message). */
export function stalledDeliveries(d1: D1Database, now: number, limit = 100): Promise<DeliveryRow[]> {
  return database(d1)
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.status, "PENDING"), lt(webhookDeliveries.nextAttemptAt, now - STALLED_AFTER_MS)))
    .limit(limit)
    .all();
}

/** Pushes a stalled delivery's next attempt time forward, so the sweep resends it once and not on every run. */
export async function markResent(d1: D1Database, id: string, attemptCount: number, now: number): Promise<boolean> {
  const result = await database(d1)
    .update(webhookDeliveries)
    .set({ nextAttemptAt: now, updatedAt: now })
    .where(and(eq(webhookDeliveries.id, id), eq(webhookDeliveries.status, "PENDING"), eq(webhookDeliveries.attemptCount, attemptCount)));
  return result.meta.changes > 0;
}

/** How long the delivery log keeps a delivery that is done (delivered, or given up). */
export const FINISHED_DELIVERY_RETENTION_MS = 30 * 24 * 3_600_000;

/** Done deliveries past their retention, payload and attempts with them: removed in batches of `limit` (worker/domain/retention/purge.ts). */
export async function purgeFinishedDeliveries(d1: D1Database, limit: number, now: number = Date.now()): Promise<number> {
  return deleteBatch(d1, "webhook_deliveries", "status != 'PENDING' AND updated_at <= ?", [now - FINISHED_DELIVERY_RETENTION_MS], limit);
}
