/** What travels on the WEBHOOKS queue: which delivery, and how many attempts it had when the message was sent. */
export interface WebhookMessage {
  deliveryId: string;
  attemptCount: number;
}

/** The WEBHOOKS queue as its senders name it: the generated bindings type it a queue of anything (worker-configuration.d.ts). */
export type WebhookQueue = { WEBHOOKS: Queue<WebhookMessage> };

export const WEBHOOK_QUEUE = "collect-webhooks";

export const deliveryMessage = (row: { id: string; attemptCount: number }): WebhookMessage => ({ deliveryId: row.id, attemptCount: row.attemptCount });
