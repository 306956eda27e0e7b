import type { Context } from "hono";
import type { KeyFailure } from "../domain/api-keys/request-gate";
import type { BaseVariables } from "../platform/http/app-env";
import type { Principal } from "../domain/api-keys/rights";

/** The partner API's request data (/api/v1, /connect, /oauth), beside what every request has. */
export interface ApiVariables extends BaseVariables {
  /** Set by authentication (authenticate.ts, run by the rate limit) when the bearer key is valid. */
  principal: Principal | undefined;
  /** Why authentication failed, raised after rate limiting so failures are limited too. */
  authFailure: KeyFailure | undefined;
  /** Set by a route that lets its request log keep its body (request-log.ts, LOGS_BODY). */
  logsBody: true | undefined;
  /** Set by a route whose repeated reads answered the same fold into one row of the request log (request-log.ts, FOLDS_REPEATS). */
  foldsRepeats: true | undefined;
  /** The text of the 200 answer such a route made (request-log.ts, `foldedJson`): what its log row's fold hashes. */
  foldedAnswer: string | undefined;
}

export interface ApiEnv {
  Bindings: Env;
  Variables: ApiVariables;
}

/** The authenticated caller; routes run behind requireAuth (authenticate.ts), so it is always set. */
export function principalOf(c: Context<ApiEnv>): Principal {
  const principal = c.get("principal");
  if (!principal) throw new Error("principalOf: the route does not run behind requireAuth");
  return principal;
}
