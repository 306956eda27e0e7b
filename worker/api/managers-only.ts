import { createMiddleware } from "hono/factory";
import { type ApiEnv, principalOf } from "./context";
import type { RouteFront } from "../platform/http/route-fronts";
import { type Action, requireKeyRight } from "../domain/workspaces/roles";

/**
 * What a managing route is defined behind (guards.ts): the calling key must
 * act with a role that may do `action` (domain/workspaces/roles.ts, where a key with
 * canManageKeys acts as the owner and any other as a member), else 403
 * ADMIN_ACTION_FORBIDDEN. So a leaked key that only collects data can neither
 * mint itself successors, revoke the owner's keys, register over or delete
 * credentials, end a connection (which erases its credentials) nor point or
 * replay webhooks somewhere else. Runs before the business selection and the
 * request's validation, so a key without the right learns nothing from its
 * answers but this refusal; the route's document lists the code.
 */
export function managersOnly(action: Action): RouteFront<ApiEnv> {
  return {
    middleware: createMiddleware<ApiEnv>(async (c, next) => {
      requireKeyRight(principalOf(c).rights, action);
      await next();
    }),
    errors: ["ADMIN_ACTION_FORBIDDEN"],
  };
}
