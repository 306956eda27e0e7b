import type { Context } from "hono";
import { ApiError } from "../../platform/errors/api-error";
import { randomToken, sha256Hex } from "../../platform/lib/crypto";
import { timingSafeEqualHex } from "../../platform/lib/timing-safe-equal";
import { readPreSessionCsrfCookie, setPreSessionCsrfCookie } from "./cookies";

export const CSRF_FIELD = "_csrf";

/**
 * The token every console form carries. Signed in, it is derived from the
 * session token (synchronizer token bound to the session: nothing extra to
 * store, and it dies with the session). Before sign-in, it is a random value
 * also kept in a cookie (double submit), so sign-in and sign-up forms
 * cannot be posted from another site either.
 */
export async function csrfToken(c: Context, sessionToken: string | null): Promise<string> {
  if (sessionToken) return sessionBoundToken(sessionToken);
  const existing = readPreSessionCsrfCookie(c);
  if (existing) return existing;
  const fresh = randomToken(24);
  setPreSessionCsrfCookie(c, fresh);
  return fresh;
}

const sessionBoundToken = (sessionToken: string) => sha256Hex(`console-csrf:${sessionToken}`);

const refused = () => new ApiError("MALFORMED_REQUEST", { message: "폼 보안 토큰이 올바르지 않습니다. 페이지를 새로 고친 뒤 다시 보내 주세요." });

/**
 * Checks a posted form: a browser's Origin, when sent, must be this site's,
 * and the form's token must be the one this session (or this anonymous
 * visitor) was given. Returns the form's fields.
 */
export async function verifiedForm(c: Context, sessionToken: string | null): Promise<Record<string, string>> {
  const origin = c.req.header("Origin");
  if (origin !== undefined && origin !== new URL(c.req.url).origin) throw refused();
  const form = await c.req.parseBody().catch(() => {
    throw refused();
  });
  const posted = form[CSRF_FIELD];
  const expected = sessionToken ? await sessionBoundToken(sessionToken) : readPreSessionCsrfCookie(c);
  if (typeof posted !== "string" || !expected || !timingSafeEqualHex(posted, expected)) throw refused();
  return Object.fromEntries(Object.entries(form).flatMap(([k, v]) => (typeof v === "string" ? [[k, v]] : [])));
}
