import { type DeliveryRow, replayDelivery } from "./deliveries";
import { deliveryMessage, type WebhookQueue } from "./messages";

/** Sends a delivery again from its first attempt, and queues it: what the API's replay and the console's both do. */
export async function replayWebhook(env: Pick<Env, "DB"> & WebhookQueue, endpointId: string, deliveryId: string, now: number = Date.now()): Promise<DeliveryRow> {
  const row = await replayDelivery(env.DB, endpointId, deliveryId, now);
  await env.WEBHOOKS.send(deliveryMessage(row));
  return row;
}
