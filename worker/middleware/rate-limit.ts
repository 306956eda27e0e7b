import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env";
import { ApiError } from "../errors/api-error";

/**
 * Per-key limits; requests without a valid key are counted per client
 * address instead, so the headers are on every response.
 */
export const rateLimit = createMiddleware<AppEnv>(async (c, next) => {
  const principal = c.get("principal");
  const subject = principal ? `key:${principal.apiKeyId}` : `ip:${c.req.header("CF-Connecting-IP") ?? "local"}`;
  const limiter = c.env.RATE_LIMITER.get(c.env.RATE_LIMITER.idFromName(subject));
  const decision = await limiter.hit();
  const headers = {
    "X-RateLimit-Limit-Minute": String(decision.limitMinute),
    "X-RateLimit-Limit-Hour": String(decision.limitHour),
    "X-RateLimit-Remaining": String(decision.remaining),
  };
  if (!decision.allowed) {
    throw new ApiError("API_RATE_LIMITED", { headers: { ...headers, "Retry-After": String(decision.retryAfterSeconds) } });
  }
  await next();
  for (const [name, value] of Object.entries(headers)) c.header(name, value);
});
