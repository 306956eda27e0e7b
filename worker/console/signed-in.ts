import type { Context, Next } from "hono";
import { createMiddleware } from "hono/factory";
import { readSessionCookie } from "../domain/console-sessions/cookies";
import { csrfToken } from "../domain/console-sessions/csrf";
import { findSession } from "../domain/console-sessions/store";
import { type ConsoleContext, type ConsoleEnv, type ConsoleUser, consoleUserOf, workspaceRoleOf } from "./context";
import { requireMembership } from "../domain/users/members";
import { findUser } from "../domain/users/store";
import { type Action, requireRole } from "../domain/workspaces/roles";

export const SIGN_IN_PATH = "/console/sign-in";

/** The signed-in user of this request, or null. */
export async function currentUser(c: Context<ConsoleEnv>): Promise<ConsoleUser | null> {
  const token = readSessionCookie(c);
  const session = token ? await findSession(c.env.DB, token) : null;
  const user = session ? await findUser(c.env.DB, session.userId) : null;
  if (!token || !session || !user) return null;
  return { userId: user.id, email: user.email, sessionToken: token, tokenHash: session.tokenHash, csrf: await csrfToken(c, token) };
}

/** Pages for signed-in users: anyone else is sent to sign in. */
export const signedIn = createMiddleware<ConsoleEnv>(async (c, next) => {
  const user = await currentUser(c);
  if (!user) {
    const url = new URL(c.req.url);
    // Back to the page asked for after signing in (e.g. the device approval link with its code).
    return c.redirect(c.req.method === "GET" ? `${SIGN_IN_PATH}?next=${encodeURIComponent(url.pathname + url.search)}` : SIGN_IN_PATH, 303);
  }
  c.set("consoleUser", user);
  await next();
});

/**
 * Pages of one workspace (`:workspaceId`): its members only, WORKSPACE_ACCESS_DENIED for everyone else. Keeps the
 * member's role for the page's own check (consoleMay, below) and for hiding what the role may not use.
 */
export const workspaceMember = async (c: ConsoleContext<"workspaceId">, next: Next) => {
  c.set("workspaceRole", await requireMembership(c.env.DB, consoleUserOf(c).userId, c.req.valid("param").workspaceId));
  await next();
};

/**
 * Every workspace page and form names its action (console/routes.ts); a role that may not do it
 * (domain/workspaces/roles.ts, the table the API's managing routes check too) is refused before the form is read, so
 * nothing changes. The refusal is the console's 403 page (console/error-pages.tsx), as every page's refusal is.
 */
export const consoleMay = (action: Action) =>
  async (c: ConsoleContext<"workspaceId">, next: Next) => {
    requireRole(workspaceRoleOf(c), action);
    await next();
  };
