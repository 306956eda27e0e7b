import { isoTime, isoTimeOrNull } from "../../platform/lib/iso-time";
import type { WebhookEventType } from "../../../contracts/webhooks";
import type { DeliveryRow } from "../../domain/webhooks/deliveries";
import type { EndpointRow } from "../../domain/webhooks/endpoints";

export function endpointView(row: EndpointRow, now = Date.now()) {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    events: row.events as WebhookEventType[],
    createdAt: isoTime(row.createdAt),
    updatedAt: isoTime(row.updatedAt),
    previousSecretExpiresAt: row.previousSecretExpiresAt !== null && row.previousSecretExpiresAt > now ? isoTime(row.previousSecretExpiresAt) : null,
  };
}

export function deliveryView(row: DeliveryRow) {
  return {
    id: row.id,
    eventId: row.eventId,
    eventType: row.eventType as WebhookEventType,
    status: row.status,
    attemptCount: row.attemptCount,
    nextAttemptAt: isoTimeOrNull(row.nextAttemptAt),
    retryUntil: isoTime(row.retryUntil),
    createdAt: isoTime(row.createdAt),
    attempts: row.attempts.map((a) => ({
      at: isoTime(a.at),
      responseStatus: a.responseStatus,
      durationMs: a.durationMs,
      error: a.error,
      nextAttemptAt: isoTimeOrNull(a.nextAttemptAt),
    })),
    payload: row.payload,
  };
}
