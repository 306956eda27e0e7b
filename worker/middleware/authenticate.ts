import { createMiddleware } from "hono/factory";
import { findApiKeyByToken } from "../api-keys/store";
import type { AppEnv } from "../env";
import { ApiError } from "../errors/api-error";

const BEARER = /^Bearer ([A-Za-z0-9_-]{16,200})$/;

/**
 * Resolves the bearer API key to a principal without failing yet: the rate
 * limiter runs in between, so that failed attempts are limited as well.
 */
export const identify = createMiddleware<AppEnv>(async (c, next) => {
  const match = BEARER.exec(c.req.header("Authorization") ?? "");
  const key = match ? await findApiKeyByToken(c.env.DB, match[1]!) : null;
  if (!key) {
    c.set("authFailure", "INVALID_TOKEN");
  } else if (key.expiresAt !== null && key.expiresAt <= Date.now()) {
    c.set("authFailure", "TOKEN_EXPIRED");
  } else {
    c.set("principal", { apiKeyId: key.id, workspaceId: key.workspaceId });
  }
  await next();
});

export const requireAuth = createMiddleware<AppEnv>(async (c, next) => {
  const failure = c.get("authFailure");
  if (failure || !c.get("principal")) throw new ApiError(failure ?? "INVALID_TOKEN");
  await next();
});
