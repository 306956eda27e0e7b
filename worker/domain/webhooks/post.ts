import type { PostOutcome } from "./deliver";

/** A receiver that has not answered within this long counts as a failed attempt. */
const DELIVERY_TIMEOUT_MS = 10_000;

/**
 * Posts a signed webhook body: partners' deliveries and operators' alert notices (domain/alerts/notify.ts). Redirects are
 * not followed: a public URL answering 3xx towards an internal address must not carry our signed request there, and
 * a receiver that moved is told so by the failed attempts in its log.
 */
export async function postWebhook(url: string, body: string, headers: Record<string, string>): Promise<PostOutcome> {
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
