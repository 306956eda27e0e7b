import type { RouteConfig } from "@hono/zod-openapi";
import type { Action } from "../domain/workspaces/roles";
import { behind, type RouteFront } from "../platform/http/route-fronts";
import { managersOnly } from "./managers-only";
import { BUSINESS_SELECTION } from "./select-business";

/** requireAuth, mounted on /api/v1/*, answers these for a missing, unknown, revoked or expired API key, or one of a suspended workspace. */
export const API_KEY_CHECK: RouteFront = { errors: ["INVALID_TOKEN", "TOKEN_EXPIRED", "WORKSPACE_ACCESS_DENIED"] };

/** Every /api/v1 operation is behind the API key check. */
export const keyed = <R extends RouteConfig>(route: R, ...more: RouteFront<any>[]) => behind(route, API_KEY_CHECK, ...more);
/** Data of one business (jobs, credentials, registration sessions): a partner selects the business with X-SVC-Business. */
export const businessScoped = <R extends RouteConfig>(route: R, ...more: RouteFront<any>[]) => behind(route, API_KEY_CHECK, BUSINESS_SELECTION, ...more);
/**
 * Routes that manage the workspace: the key must act with a role that may do `action` (domain/workspaces/roles.ts, the one
 * table of who may do what; the console's pages check the same), refused before the business is selected.
 * `more` are the route's other fronts (request-log.ts LOGS_BODY).
 */
export const managing = <R extends RouteConfig>(action: Action, route: R, ...more: RouteFront<any>[]) => behind(route, API_KEY_CHECK, managersOnly(action), ...more);
export const managingBusiness = <R extends RouteConfig>(action: Action, route: R, ...more: RouteFront<any>[]) =>
  behind(route, API_KEY_CHECK, managersOnly(action), BUSINESS_SELECTION, ...more);
