import { createMiddleware } from "hono/factory";
import { type AdminApiEnv, operatorOf } from "../context";
import { ApiError } from "../../platform/errors/api-error";
import type { RouteFront } from "../../platform/http/route-fronts";
import { assertOperatorMay, type OperatorAction } from "../../domain/operators/permissions";
import { findOperatorSession } from "../../domain/operators/store";
import { operatorCookie } from "../../domain/operators/session-cookie";

const BEARER = /^Bearer (ops_[A-Za-z0-9_-]{16,100})$/;

/** A live operator session's bearer token, or with `orCookie` the /admin console's session cookie; anyone else 403 ADMIN_FORBIDDEN. */
const operatorSession = (orCookie: boolean) =>
  createMiddleware<AdminApiEnv>(async (c, next) => {
    const token = BEARER.exec(c.req.header("Authorization") ?? "")?.[1] ?? (orCookie ? operatorCookie(c) : undefined);
    const operator = token ? await findOperatorSession(c.env.DB, token) : null;
    if (!operator) throw new ApiError("ADMIN_FORBIDDEN");
    c.set("operator", operator);
    await next();
  });

/**
 * Every /admin/api call but signing in: the bearer must be a live operator session. Anyone else, API keys and
 * console sessions included, gets 403 ADMIN_FORBIDDEN and learns nothing more.
 */
const requireOperator = operatorSession(false);

/**
 * The operators' document also opens to the /admin console's session cookie (it is a read, and the cookie is
 * SameSite=Strict), so an operator signed in to the console can open it.
 */
export const operatorDocumentAccess = operatorSession(true);

export const OPERATOR_SESSION: RouteFront<AdminApiEnv> = { middleware: requireOperator, errors: ["ADMIN_FORBIDDEN"] };

/** The operator's role must allow `action` (domain/operators/permissions.ts), else 403 ADMIN_ACTION_FORBIDDEN. */
export function operatorsMay(action: OperatorAction): RouteFront<AdminApiEnv> {
  return {
    middleware: createMiddleware<AdminApiEnv>(async (c, next) => {
      assertOperatorMay(operatorOf(c).role, action);
      await next();
    }),
    errors: ["ADMIN_ACTION_FORBIDDEN"],
  };
}

/** Actions that change something or show a workspace's data write the audit line first (domain/operators/audit.ts). */
export const AUDITED: RouteFront = { errors: ["ADMIN_ACTION_NOT_MARKED"] };
