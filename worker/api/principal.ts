import type { Context } from "hono";
import type { AppEnv, Principal } from "../env";

/** The authenticated caller; routes run behind requireAuth, so it is always set. */
export function principalOf(c: Context<AppEnv>): Principal {
  return c.get("principal")!;
}
