import { numberOr } from "../../platform/configuration";
import { claimAttempt, recordAttempt } from "./deliveries";
import type { DeliveryDeps } from "./deliver";
import { postWebhook } from "./post";
import { endpointById } from "./endpoints";
import { signingSecrets } from "./secrets";
import { deliveryUrlRefusal, localUrlsAllowed } from "./url";
import type { WebhookQueue } from "./messages";

export type WebhooksEnv = Pick<Env, "DB" | "VAULT_MASTER_KEY" | "WEBHOOK_RETRY_BASE_SECONDS" | "WEBHOOK_RETRY_MAX_SECONDS" | "WEBHOOK_ALLOW_LOCAL_URLS"> & WebhookQueue;

/** Production's retry schedule: about 1 minute doubling up to 2 hours, within the 24 h window (Queues delays at most 12 h). */
const RETRY_BASE_SECONDS = 60;
const RETRY_MAX_SECONDS = 2 * 60 * 60;

export function deliveryDeps(env: WebhooksEnv): DeliveryDeps {
  return {
    now: () => Date.now(),
    random: Math.random,
    retry: { baseSeconds: numberOr(env.WEBHOOK_RETRY_BASE_SECONDS, RETRY_BASE_SECONDS), maxSeconds: numberOr(env.WEBHOOK_RETRY_MAX_SECONDS, RETRY_MAX_SECONDS) },
    claim: (id, attemptCount, now) => claimAttempt(env.DB, id, attemptCount, now),
    urlRefusal: (url) => deliveryUrlRefusal(url, localUrlsAllowed(env)),
    target: async (endpointId, now) => {
      const endpoint = await endpointById(env.DB, endpointId);
      return endpoint ? { url: endpoint.url, secrets: await signingSecrets(env.VAULT_MASTER_KEY, endpoint, now) } : null;
    },
    post: postWebhook,
    record: (id, attempt, next) => recordAttempt(env.DB, id, attempt, next),
    schedule: async (message, delaySeconds) => {
      await env.WEBHOOKS.send(message, { delaySeconds });
    },
  };
}
