import type { Context } from "hono";
import type { AppEnv } from "../../env";

export const PAGE_ORIGINS_HEADER = "X-SVC-Page-Origins";

/**
 * The origins the hosted UI vouches for, space-separated as in an RFC 6454
 * origin list: first the origin the browser reported for the opener's or
 * parent's handshake reply, then the frame ancestors the browser reports.
 * The session decides whether they are allowed; a missing header is no origins.
 */
export function pageOrigins(c: Context<AppEnv>): string[] {
  return (c.req.header(PAGE_ORIGINS_HEADER) ?? "").split(" ").filter((origin) => origin !== "");
}
