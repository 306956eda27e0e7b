import { CollectApiError, errorFromResponse, networkError } from "./errors";

/** What one openapi-fetch call resolves to. */
interface Outcome<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

export interface RetryPolicy {
  /** Further attempts after the first (default 4). */
  maxRetries?: number;
  /** Wait before the first retry when the service names none; doubles each time (default 500 ms, at most 30 s). */
  baseDelayMs?: number;
  /**
   * The longest Retry-After waited out (default 300 s): a free plan's monthly
   * cap answers 429 until next month, which the caller must hear about, not sleep through.
   */
  maxRetryAfterSeconds?: number;
  signal?: AbortSignal;
}

/**
 * Whether a call may be sent again after an answer that does not say the
 * service refused it untouched: a GET, a DELETE or a POST with an
 * Idempotency-Key is (the service answers a repeat as it answered the first);
 * a POST without one is not, so it is repeated only after a 429, which the
 * service answers before doing anything.
 */
export type Replay = "safe" | "only-refused";

/** Answers worth repeating unchanged: the rate limit and the service or a gateway being briefly unavailable. */
const RETRIED_STATUSES = new Set([429, 500, 502, 503, 504]);

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

function backoffMs(retry: number, baseDelayMs: number): number {
  const ceiling = Math.min(baseDelayMs * 2 ** retry, 30_000);
  return ceiling / 2 + Math.random() * (ceiling / 2);
}

/**
 * Runs one API call, repeating it after a 429 (waiting what Retry-After
 * says) and, when `replay` is "safe", after a dropped connection or a 5xx,
 * as Stripe's libraries do; turns a final error into CollectApiError.
 */
export async function withRetries<T>(call: () => Promise<Outcome<T>>, policy: RetryPolicy = {}, replay: Replay = "safe"): Promise<{ data: T; response: Response }> {
  const maxRetries = policy.maxRetries ?? 4;
  const baseDelayMs = policy.baseDelayMs ?? 500;
  const maxRetryAfterSeconds = policy.maxRetryAfterSeconds ?? 300;
  for (let retry = 0; ; retry++) {
    let failure: CollectApiError;
    try {
      const outcome = await call();
      if (outcome.response.ok) return { data: outcome.data as T, response: outcome.response };
      failure = errorFromResponse(outcome.response, outcome.error);
      const retried = replay === "safe" ? RETRIED_STATUSES.has(failure.status) : failure.status === 429;
      if (!retried || (failure.retryAfterSeconds ?? 0) > maxRetryAfterSeconds) throw failure;
    } catch (err) {
      if (err instanceof CollectApiError) throw err;
      if (policy.signal?.aborted) throw policy.signal.reason;
      failure = networkError(err);
      if (replay !== "safe") throw failure;
    }
    if (retry >= maxRetries) throw failure;
    const wait = failure.retryAfterSeconds !== undefined ? failure.retryAfterSeconds * 1000 : backoffMs(retry, baseDelayMs);
    await sleep(wait, policy.signal);
  }
}
