import type { Context } from "hono";
import type { Actor } from "../domain/operators/actions";
import type { Operator } from "../domain/operators/store";
import type { BaseVariables, PageVariables } from "../platform/http/app-env";
import type { WithPath } from "../web/path-params";

/** The operators' API's request data (/admin/api), beside what every request has. */
export interface AdminApiVariables extends BaseVariables {
  /** The signed-in operator (api/authenticate.ts). */
  operator: Operator | undefined;
}

export interface AdminApiEnv {
  Bindings: Env;
  Variables: AdminApiVariables;
}

/** The operators' pages' request data (/admin), beside what every page has. */
export interface AdminPagesVariables extends PageVariables {
  /** The signed-in operator, the console session's token and the form token derived from it (pages/session.ts). */
  operator: Operator | undefined;
  operatorToken: string | undefined;
  operatorCsrf: string | undefined;
}

export interface AdminPagesEnv {
  Bindings: Env;
  Variables: AdminPagesVariables;
}

/** An operators' page handler's context on a route with path parameters `K` (declared in pages/routes.ts). */
export type AdminPageContext<K extends string> = WithPath<AdminPagesEnv, K>;

/** The signed-in operator, on the API or a page (whose context extends the API's): each runs behind the middleware that sets it. */
export function operatorOf<E extends AdminApiEnv>(c: Context<E>): Operator {
  const operator = c.get("operator");
  if (!operator) throw new Error("operatorOf: the route does not run behind an operator's session");
  return operator;
}

/** Who acts in this request, for domain/operators/actions.ts. */
export const actorOf = <E extends AdminApiEnv>(c: Context<E>): Actor => ({ operator: operatorOf(c), requestId: c.get("requestId") });

/** The operators' page session's token; pages run behind `operatorSignedIn` (pages/session.ts), which sets it. */
export function operatorTokenOf(c: Context<AdminPagesEnv>): string {
  const token = c.get("operatorToken");
  if (token === undefined) throw new Error("operatorTokenOf: the page does not run behind operatorSignedIn");
  return token;
}

/** The form token of the operator's page session, set with the token. */
export function operatorCsrfOf(c: Context<AdminPagesEnv>): string {
  const csrf = c.get("operatorCsrf");
  if (csrf === undefined) throw new Error("operatorCsrfOf: the page does not run behind operatorSignedIn");
  return csrf;
}
