import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { DOWNLOAD_LINK_PATH } from "../domain/download-links/links";
import type { ApiEnv } from "./context";
import { addressGate, type RateDecision } from "../domain/api-keys/request-gate";
import { ApiError } from "../platform/errors/api-error";
import { setAnswerHeaders } from "../platform/http/answer-headers";
import { clientAddress } from "../platform/http/client-address";
import { admitHostedUiCall } from "./connect/admission";
import { authenticate } from "./authenticate";

/**
 * The gates a request is counted against: the API's by key (or address), the hosted UI's API by session and address,
 * anything else by address. Download links take no key, so they are counted by address whatever the caller sends.
 */
function admit(c: Context<ApiEnv>): Promise<RateDecision> {
  if (c.req.path.startsWith(DOWNLOAD_LINK_PATH)) return addressGate(c.env, clientAddress(c)).hit();
  if (c.req.path.startsWith("/api/")) return authenticate(c);
  if (c.req.path.startsWith("/connect/api/")) return admitHostedUiCall(c);
  return addressGate(c.env, clientAddress(c)).hit();
}

/**
 * Counts every request before anything else answers it, so the spec's rate
 * headers are on every response (errors, 404, 405, pages) and an over-limit
 * caller gets 429 API_RATE_LIMITED with Retry-After.
 */
export const rateLimit = createMiddleware<ApiEnv>(async (c, next) => {
  const decision = await admit(c);
  const headers = {
    "X-RateLimit-Limit-Minute": String(decision.limitMinute),
    "X-RateLimit-Limit-Hour": String(decision.limitHour),
    "X-RateLimit-Remaining": String(decision.remaining),
  };
  if (!decision.allowed) {
    throw new ApiError("API_RATE_LIMITED", { headers: { ...headers, "Retry-After": String(decision.retryAfterSeconds) } });
  }
  await next();
  setAnswerHeaders(c, headers);
});
