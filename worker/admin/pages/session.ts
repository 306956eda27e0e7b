import { createMiddleware } from "hono/factory";
import { csrfToken } from "../../domain/console-sessions/csrf";
import type { AdminPagesEnv } from "../context";
import { operatorCookie } from "../../domain/operators/session-cookie";
import { findOperatorSession } from "../../domain/operators/store";

export const ADMIN_SIGN_IN_PATH = "/admin/sign-in";

/** Pages for signed-in operators: anyone else is sent to sign in. Keeps the operator and the session's form token. */
export const operatorSignedIn = createMiddleware<AdminPagesEnv>(async (c, next) => {
  const token = operatorCookie(c);
  const operator = token ? await findOperatorSession(c.env.DB, token) : null;
  if (!token || !operator) return c.redirect(ADMIN_SIGN_IN_PATH, 303);
  c.set("operator", operator);
  c.set("operatorCsrf", await csrfToken(c, token));
  c.set("operatorToken", token);
  await next();
});
