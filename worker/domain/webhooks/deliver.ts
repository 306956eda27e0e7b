import { EVENT_ID_HEADER, EVENT_TYPE_HEADER, SIGNATURE_HEADER, signWebhook, standardWebhookHeaders } from "../../../contracts/webhooks";
import type { WebhookAttempt, WebhookDeliveryStatus } from "./tables";
import { backoffSeconds } from "../../platform/lib/backoff";
import type { DeliveryRow } from "./deliveries";
import type { WebhookMessage } from "./messages";

/** The error text kept per attempt. */
export const MAX_DELIVERY_ERROR_LENGTH = 300;

/** What a POST to the receiver came to: its status, or the network error / timeout that kept it from answering. */
export type PostOutcome = { status: number } | { error: string };

/** Everything delivery touches, so the function itself is pure (worker/domain/webhooks/deps.ts wires the bindings). */
export interface DeliveryDeps {
  now(): number;
  random(): number;
  retry: { baseSeconds: number; maxSeconds: number };
  claim(deliveryId: string, attemptCount: number, now: number): Promise<DeliveryRow | null>;
  /** Whether the URL passes the registration rules now (deployment's WEBHOOK_ALLOW_LOCAL_URLS): null, or why not. */
  urlRefusal(url: string): string | null;
  /** The endpoint's URL and its signing secrets as of now; null once the endpoint is deleted. */
  target(endpointId: string, now: number): Promise<{ url: string; secrets: string[] } | null>;
  /** POSTs with a timeout (deps.ts: 10 s), not following redirects. */
  post(url: string, body: string, headers: Record<string, string>): Promise<PostOutcome>;
  record(deliveryId: string, attempt: Omit<WebhookAttempt, "nextAttemptAt">, next: { status: WebhookDeliveryStatus; nextAttemptAt: number | null }): Promise<void>;
  schedule(message: WebhookMessage, delaySeconds: number): Promise<void>;
}

export type DeliveryResult = "SENT" | "RETRYING" | "FAILED" | "STALE";

/**
 * Signs and posts the delivery; null once its endpoint is gone. A secret
 * that cannot be opened (a vault key removed too early) fails the attempt
 * like a receiver error would, so the delivery still ends in the log.
 */
async function send(deps: DeliveryDeps, delivery: DeliveryRow, now: number): Promise<PostOutcome | null> {
  let target: { url: string; secrets: string[] } | null;
  let signatures: Record<string, string>;
  try {
    target = await deps.target(delivery.endpointId, now);
    if (!target) return null;
    const refused = deps.urlRefusal(target.url);
    if (refused) return { error: refused };
    signatures = {
      [SIGNATURE_HEADER]: await signWebhook(delivery.payload, target.secrets, now / 1000),
      ...(await standardWebhookHeaders(delivery.eventId, delivery.payload, target.secrets, now / 1000)),
    };
  } catch (err) {
    return { error: `could not sign the delivery: ${String(err)}` };
  }
  return deps.post(target.url, delivery.payload, {
    "Content-Type": "application/json",
    "User-Agent": "collect-edge-webhooks/1",
    ...signatures,
    [EVENT_ID_HEADER]: delivery.eventId,
    [EVENT_TYPE_HEADER]: delivery.eventType,
  });
}

const truncate = (text: string) => (text.length > MAX_DELIVERY_ERROR_LENGTH ? `${text.slice(0, MAX_DELIVERY_ERROR_LENGTH - 1)}…` : text);

/**
 * One attempt at a delivery: signs the stored body with the endpoint's
 * secrets at the current time, posts it, and logs the attempt. Any answer
 * other than 2xx, and any network error or timeout, is retried with
 * exponential backoff and jitter until the delivery's retry window closes;
 * then it is FAILED for good (a replay can still send it).
 */
export async function deliverWebhook(deps: DeliveryDeps, message: WebhookMessage): Promise<DeliveryResult> {
  const startedAt = deps.now();
  const delivery = await deps.claim(message.deliveryId, message.attemptCount, startedAt);
  if (!delivery) return "STALE";
  const outcome = await send(deps, delivery, startedAt);
  if (!outcome) return "STALE";
  const finishedAt = deps.now();
  const ok = "status" in outcome && outcome.status >= 200 && outcome.status < 300;
  const attempt: Omit<WebhookAttempt, "nextAttemptAt"> = {
    at: startedAt,
    responseStatus: "status" in outcome ? outcome.status : null,
    durationMs: finishedAt - startedAt,
    error: ok ? null : truncate("error" in outcome ? outcome.error : `HTTP ${outcome.status}`),
  };
  if (ok) {
    await deps.record(delivery.id, attempt, { status: "SUCCEEDED", nextAttemptAt: null });
    return "SENT";
  }
  const delaySeconds = backoffSeconds(delivery.attemptCount - 1, deps.retry.baseSeconds, deps.retry.maxSeconds, deps.random);
  const nextAttemptAt = finishedAt + delaySeconds * 1000;
  if (nextAttemptAt > delivery.retryUntil) {
    await deps.record(delivery.id, attempt, { status: "FAILED", nextAttemptAt: null });
    return "FAILED";
  }
  await deps.record(delivery.id, attempt, { status: "PENDING", nextAttemptAt });
  await deps.schedule({ deliveryId: delivery.id, attemptCount: delivery.attemptCount }, delaySeconds);
  return "RETRYING";
}
