import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { OPERATOR_SESSION_TTL_MS } from "./store";

/**
 * The operator session's cookie, for the /admin console: sent only to /admin paths, never to the partners' console or
 * API, and over https a `__Secure-` cookie (Secure, no plain-http page can set it). Plain http exists only on a
 * developer's machine.
 */
function cookieName(c: Context): { name: string; secure: boolean } {
  const secure = new URL(c.req.url).protocol === "https:";
  return { name: secure ? "__Secure-admin_session" : "admin_session", secure };
}

export const operatorCookie = (c: Context): string | undefined => getCookie(c, cookieName(c).name);

export function setOperatorCookie(c: Context, token: string): void {
  const { name, secure } = cookieName(c);
  // Strict: an operator's session never rides along from a link on another site, not even a GET.
  setCookie(c, name, token, { path: "/admin", httpOnly: true, secure, sameSite: "Strict", maxAge: OPERATOR_SESSION_TTL_MS / 1000 });
}

export function clearOperatorCookie(c: Context): void {
  const { name, secure } = cookieName(c);
  deleteCookie(c, name, { path: "/admin", secure });
}
