import type { WebhookEvent, WebhookEventType } from "../../contracts/webhooks";
import type { Bindings } from "../env";
import { isoTime } from "../lib/iso-time";
import { eventRecipients, recipientsOf } from "../workspaces/store";
import { insertDeliveries } from "./deliveries";
import { subscribedEndpoints } from "./endpoints";
import { deliveryMessage } from "./messages";
import { log } from "../observability/telemetry";

export type EventsEnv = Pick<Bindings, "DB" | "WEBHOOKS">;

export interface ResourceEvent {
  type: WebhookEventType;
  /** The workspace the resource belongs to; a connection workspace's partner hears of it too. */
  workspaceId: string;
  /** Whose plan bills the workspace (its partner, for a connection workspace), when the caller has it at hand: saves a read. */
  billingWorkspaceId?: string;
  /** The resource as its GET endpoint returns it. */
  object: object;
}

/**
 * Records one delivery per subscribed endpoint and queues them. Called by
 * the state change itself, after it committed; a failure here is logged and
 * never undoes or fails that change (a delivery recorded but not queued is
 * sent by the sweep, see deliveries.ts stalledDeliveries).
 */
export async function emitEvent(env: EventsEnv, event: ResourceEvent, now = Date.now()): Promise<void> {
  try {
    const recipients = event.billingWorkspaceId === undefined ? await eventRecipients(env.DB, event.workspaceId) : recipientsOf(event.workspaceId, event.billingWorkspaceId);
    const endpoints = await subscribedEndpoints(env.DB, recipients, event.type);
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
