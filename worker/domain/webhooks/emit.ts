import type { WebhookEvent, WebhookEventType } from "../../../contracts/webhooks";
import { isoTime } from "../../platform/lib/iso-time";
import { eventRecipients, recipientsOf } from "../workspaces/recipients";
import { type DeliveryRow, insertDeliveries, markResent, replayDelivery, stalledDeliveries } from "./deliveries";
import { type Subscriber, subscribedEndpoints } from "./endpoints";
import { deliveryMessage, type WebhookQueue } from "./messages";
import { log } from "../../platform/observability/telemetry";

export type EventsEnv = Pick<Env, "DB"> & WebhookQueue;

export interface ResourceEvent {
  type: WebhookEventType;
  /** The workspace the resource belongs to; a connection workspace's partner hears of it too. */
  workspaceId: string;
  /** Whose plan bills the workspace (its partner, for a connection workspace), when the caller has it at hand: saves a read. */
  billingWorkspaceId?: string;
  /** The resource as its GET endpoint returns it. */
  object: object;
}

/** The workspaces whose endpoints hear of the event: its own and its billing workspace (a partner). */
function recipients(env: EventsEnv, event: ResourceEvent): Promise<string[]> | string[] {
  return event.billingWorkspaceId === undefined ? eventRecipients(env.DB, event.workspaceId) : recipientsOf(event.workspaceId, event.billingWorkspaceId);
}

/**
 * Records one delivery per subscribed endpoint and queues them. Called by
 * the state change itself, after it committed; a failure here is logged and
 * never undoes or fails that change (a delivery recorded but not queued is
 * sent by the sweep, see deliveries.ts stalledDeliveries). A caller that read the subscribed endpoints at the
 * revision its change committed at (domain/jobs/create-context.ts) hands them over instead of their being read again.
 */
export async function emitEvent(env: EventsEnv, event: ResourceEvent, now = Date.now(), subscribers?: readonly Subscriber[]): Promise<void> {
  try {
    const endpoints = subscribers ?? (await subscribedEndpoints(env.DB, await recipients(env, event), event.type));
    if (endpoints.length === 0) return;
    const body: WebhookEvent<object> = { id: `evt_${crypto.randomUUID().replaceAll("-", "")}`, type: event.type, createdAt: isoTime(now), data: { object: event.object } };
    const payload = JSON.stringify(body);
    const rows = await insertDeliveries(
      env.DB,
      endpoints.map((e) => ({ endpointId: e.id, workspaceId: e.workspaceId, eventId: body.id, eventType: event.type, payload })),
      now,
    );
    await env.WEBHOOKS.sendBatch(rows.map((row) => ({ body: deliveryMessage(row) })));
  } catch (err) {
    log("error", "webhook-emit-failed", { type: event.type, workspaceId: event.workspaceId, error: String(err) });
  }
}

/** Sends a delivery again from its first attempt, and queues it: what the API's replay and the console's both do. */
export async function replayWebhook(env: EventsEnv, endpointId: string, deliveryId: string, now: number = Date.now()): Promise<DeliveryRow> {
  const row = await replayDelivery(env.DB, endpointId, deliveryId, now);
  await env.WEBHOOKS.send(deliveryMessage(row));
  return row;
}

/** Sends again the deliveries whose queue message was lost; the cron runs it. Returns how many. */
export async function resendStalledDeliveries(env: EventsEnv, now = Date.now()): Promise<number> {
  let resent = 0;
  for (const row of await stalledDeliveries(env.DB, now)) {
    if (!(await markResent(env.DB, row.id, row.attemptCount, now))) continue;
    await env.WEBHOOKS.send(deliveryMessage(row));
    resent++;
  }
  return resent;
}
