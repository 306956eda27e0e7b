import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { createMiddleware } from "hono/factory";
import { csrfToken } from "../../console-sessions/csrf";
import type { AppEnv } from "../../env";
import { findOperatorSession, OPERATOR_SESSION_TTL_MS } from "../../operators/store";

export const ADMIN_SIGN_IN_PATH = "/admin/sign-in";

/**
 * The operator session's cookie: sent only to /admin pages, never to the partners' console or API, and over https a
 * `__Secure-` cookie (Secure, no plain-http page can set it). Plain http exists only on a developer's machine.
 */
function cookieName(c: Context): { name: string; secure: boolean } {
  const secure = new URL(c.req.url).protocol === "https:";
  return { name: secure ? "__Secure-admin_session" : "admin_session", secure };
}

export function setOperatorCookie(c: Context, token: string): void {
  const { name, secure } = cookieName(c);
  // Strict: an operator's session never rides along from a link on another site, not even a GET.
  setCookie(c, name, token, { path: "/admin", httpOnly: true, secure, sameSite: "Strict", maxAge: OPERATOR_SESSION_TTL_MS / 1000 });
}

export function clearOperatorCookie(c: Context): void {
  const { name, secure } = cookieName(c);
  deleteCookie(c, name, { path: "/admin", secure });
}

/** Pages for signed-in operators: anyone else is sent to sign in. Keeps the operator and the session's form token. */
export const operatorSignedIn = createMiddleware<AppEnv>(async (c, next) => {
  const token = getCookie(c, cookieName(c).name);
  const operator = token ? await findOperatorSession(c.env.DB, token) : null;
  if (!token || !operator) return c.redirect(ADMIN_SIGN_IN_PATH, 303);
  c.set("operator", operator);
  c.set("operatorCsrf", await csrfToken(c, token));
  c.set("operatorToken", token);
  await next();
});
