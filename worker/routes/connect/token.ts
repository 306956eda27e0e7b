import type { Context } from "hono";
import type { AppEnv } from "../../env";
import { ApiError } from "../../errors/api-error";

/** The hosted UI presents the one-time session token as a bearer token; it never travels in a URL the server sees. */
export function registrationToken(c: Context<AppEnv>): string {
  const match = /^Bearer (\S{1,200})$/.exec(c.req.header("Authorization") ?? "");
  if (!match) throw new ApiError("REGISTRATION_SESSION_TOKEN_INVALID");
  return match[1]!;
}
