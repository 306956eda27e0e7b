import type { Context } from "hono";
import { setSessionCookie } from "../domain/console-sessions/cookies";
import { openSession, SESSION_TTL_MS } from "../domain/console-sessions/store";
import type { ConsoleEnv } from "./context";

/** Signs the browser in (a fresh token each time, so a token planted before sign-in is worthless) and sends it on. */
export async function startSession(c: Context<ConsoleEnv>, userId: string, next: string): Promise<Response> {
  const { token } = await openSession(c.env.DB, userId);
  setSessionCookie(c, token, SESSION_TTL_MS / 1000);
  return c.redirect(next, 303);
}

/** Where a signed-in user lands: the page they were sent away from, if it is one of ours, else the console's home. */
export function landingPath(requested: string | undefined): string {
  return requested && /^\/console\/[A-Za-z0-9/_-]*(\?[A-Za-z0-9=&%_-]*)?$/.test(requested) ? requested : "/console";
}
