import type { Context } from "hono";
import type { ApiEnv } from "../context";
import { ApiError } from "../../platform/errors/api-error";

/** The hosted UI presents the one-time session token as a bearer token; it never travels in a URL the server sees. */
export function presentedRegistrationToken(c: Context<ApiEnv>): string | null {
  return /^Bearer (\S{1,200})$/.exec(c.req.header("Authorization") ?? "")?.[1] ?? null;
}

export function registrationToken(c: Context<ApiEnv>): string {
  const token = presentedRegistrationToken(c);
  if (!token) throw new ApiError("REGISTRATION_SESSION_TOKEN_INVALID");
  return token;
}

/** The document's security scheme for the hosted UI's calls: the session token as a bearer token. */
export const REGISTRATION_SESSION_TOKEN = "registrationSessionToken";
