import type { Bindings } from "../env";
import { claimAttempt, recordAttempt } from "./deliveries";
import type { DeliveryDeps, PostOutcome } from "./deliver";
import { endpointById } from "./endpoints";
import { signingSecrets } from "./secrets";
import { deliveryUrlRefusal, localUrlsAllowed } from "./url";

export type WebhooksEnv = Pick<Bindings, "DB" | "WEBHOOKS" | "VAULT_MASTER_KEY" | "WEBHOOK_RETRY_BASE_SECONDS" | "WEBHOOK_RETRY_MAX_SECONDS" | "WEBHOOK_ALLOW_LOCAL_URLS">;

/** Production's retry schedule: about 1 minute doubling up to 2 hours, within the 24 h window (Queues delays at most 12 h). */
const RETRY_BASE_SECONDS = 60;
const RETRY_MAX_SECONDS = 2 * 60 * 60;
/** A receiver that has not answered within this long counts as a failed attempt. */
const DELIVERY_TIMEOUT_MS = 10_000;

const number = (value: string | undefined, fallback: number) => (value === undefined || value === "" ? fallback : Number(value));

/**
 * Posts a delivery. Redirects are not followed: a public URL answering 3xx
 * towards an internal address must not carry our signed request there, and
 * a receiver that moved is told so by the failed attempts in its log.
 */
async function post(url: string, body: string, headers: Record<string, string>): Promise<PostOutcome> {
  try {
    const response = await fetch(url, { method: "POST", body, headers, redirect: "manual", signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS) });
    // The answer's status and timing are all the log keeps: a receiver's body is its own business, and may hold anything.
    await response.body?.cancel().catch(() => undefined);
    return { status: response.status };
  } catch (err) {
    const timedOut = err instanceof Error && (err.name === "TimeoutError" || err.name === "AbortError");
    return { error: timedOut ? `no answer within ${DELIVERY_TIMEOUT_MS / 1000} s` : String(err) };
  }
}

export function deliveryDeps(env: WebhooksEnv): DeliveryDeps {
  return {
    now: () => Date.now(),
    random: Math.random,
    retry: { baseSeconds: number(env.WEBHOOK_RETRY_BASE_SECONDS, RETRY_BASE_SECONDS), maxSeconds: number(env.WEBHOOK_RETRY_MAX_SECONDS, RETRY_MAX_SECONDS) },
    claim: (id, attemptCount, now) => claimAttempt(env.DB, id, attemptCount, now),
    urlRefusal: (url) => deliveryUrlRefusal(url, localUrlsAllowed(env)),
    target: async (endpointId, now) => {
      const endpoint = await endpointById(env.DB, endpointId);
      return endpoint ? { url: endpoint.url, secrets: await signingSecrets(env.VAULT_MASTER_KEY, endpoint, now) } : null;
    },
    post,
    record: (id, attempt, next) => recordAttempt(env.DB, id, attempt, next),
    schedule: async (message, delaySeconds) => {
      await env.WEBHOOKS.send(message, { delaySeconds });
    },
  };
}
