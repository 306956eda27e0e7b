import { deliverWebhook } from "./deliver";
import { deliveryDeps, type WebhooksEnv } from "./deps";
import type { WebhookMessage } from "./messages";
import { log } from "../../platform/observability/telemetry";

/**
 * The WEBHOOKS queue handler: a thin loop making one attempt per message.
 * Retries are new messages the delivery schedules itself. The queue's own
 * retry is for a message whose attempt could not be claimed (D1
 * unreachable); one that failed after its claim is outdated by then, and
 * the cron sends that delivery again (emit.ts resendStalledDeliveries).
 */
export async function consumeWebhookBatch(batch: MessageBatch<WebhookMessage>, env: WebhooksEnv): Promise<void> {
  const deps = deliveryDeps(env);
  await Promise.all(
    batch.messages.map(async (message) => {
      try {
        await deliverWebhook(deps, message.body);
        message.ack();
      } catch (err) {
        log("error", "webhook-delivery-error", { deliveryId: message.body.deliveryId, error: String(err) });
        message.retry();
      }
    }),
  );
}
