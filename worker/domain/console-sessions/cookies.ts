import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";

/**
 * Over https (every deployment) the console's cookies are `__Host-` cookies:
 * Secure, Path=/, no Domain, so no subdomain or plain-http page can set or
 * read them. Plain http exists only on a developer's machine (`npm start`,
 * e2e tests on 127.0.0.1), where a Secure cookie would not come back, so
 * there they go without the prefix and the Secure flag.
 */
function cookieName(c: Context, name: string): { name: string; secure: boolean } {
  const secure = new URL(c.req.url).protocol === "https:";
  return { name: secure ? `__Host-${name}` : name, secure };
}

const SESSION = "console_session";
/** The anonymous visitor's double-submit token, for the forms shown before sign-in (sign-in, sign-up). */
const PRE_SESSION_CSRF = "console_csrf";

function set(c: Context, base: string, value: string, maxAgeSeconds?: number): void {
  const { name, secure } = cookieName(c, base);
  // Lax, not Strict: a link into the console from mail or chat should arrive signed in; every write is a POST, which Lax never sends cross-site.
  setCookie(c, name, value, { path: "/", httpOnly: true, secure, sameSite: "Lax", maxAge: maxAgeSeconds });
}

export const readSessionCookie = (c: Context): string | undefined => getCookie(c, cookieName(c, SESSION).name);
export const setSessionCookie = (c: Context, token: string, maxAgeSeconds: number): void => set(c, SESSION, token, maxAgeSeconds);
export function clearSessionCookie(c: Context): void {
  const { name, secure } = cookieName(c, SESSION);
  deleteCookie(c, name, { path: "/", secure });
}

export const readPreSessionCsrfCookie = (c: Context): string | undefined => getCookie(c, cookieName(c, PRE_SESSION_CSRF).name);
export const setPreSessionCsrfCookie = (c: Context, token: string): void => set(c, PRE_SESSION_CSRF, token);
