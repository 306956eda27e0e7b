import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env";
import { addressGate, keyGate } from "../durable-objects/request-gate";
import { ApiError } from "../errors/api-error";
import { sha256Hex } from "../lib/crypto";

const BEARER = /^Bearer ([A-Za-z0-9_-]{16,200})$/;

/**
 * Resolves the bearer key and applies the rate limit in one step, without
 * failing yet: requests without a usable key are limited per client address,
 * so rate headers are on every response and failed attempts are limited too.
 */
export const authenticate = createMiddleware<AppEnv>(async (c, next) => {
  const match = BEARER.exec(c.req.header("Authorization") ?? "");
  let decision;
  if (match) {
    const hash = await sha256Hex(match[1]!);
    const admission = await keyGate(c.env, hash).admitKey(hash);
    if ("key" in admission) {
      c.set("principal", { apiKeyId: admission.key.id, workspaceId: admission.key.workspaceId, isPartner: admission.key.isPartner, rights: admission.key.rights });
      decision = admission.decision;
    } else c.set("authFailure", admission.failure);
  } else c.set("authFailure", "INVALID_TOKEN");
  if (!decision) {
    decision = await addressGate(c.env, c.req.header("CF-Connecting-IP") ?? "local").hit();
  }
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

export const requireAuth = createMiddleware<AppEnv>(async (c, next) => {
  const failure = c.get("authFailure");
  if (failure || !c.get("principal")) throw new ApiError(failure ?? "INVALID_TOKEN");
  await next();
});
