import type { Context } from "hono";
import type { MemberRole } from "../domain/workspaces/tables";
import type { PageVariables } from "../platform/http/app-env";
import type { WithPath } from "../web/path-params";

/** The signed-in console user of a /console request (signed-in.ts). */
export interface ConsoleUser {
  userId: string;
  email: string;
  /** The cookie's token, from which the session's CSRF token is derived. */
  sessionToken: string;
  tokenHash: string;
  csrf: string;
}

/** The customer console's request data, beside what every page has. */
export interface ConsoleVariables extends PageVariables {
  /** Set by `signedIn` (signed-in.ts). */
  consoleUser: ConsoleUser | undefined;
  /** The console user's role in the path's workspace, set with the membership check (`workspaceMember`, signed-in.ts). */
  workspaceRole: MemberRole | undefined;
}

export interface ConsoleEnv {
  Bindings: Env;
  Variables: ConsoleVariables;
}

/** A console handler's context on a route with path parameters `K` (declared in routes.ts), read with `c.req.valid("param")`. */
export type ConsoleContext<K extends string> = WithPath<ConsoleEnv, K>;

/** The signed-in user; pages run behind `signedIn`, which sets it. */
export function consoleUserOf(c: Context<ConsoleEnv>): ConsoleUser {
  const user = c.get("consoleUser");
  if (!user) throw new Error("consoleUserOf: the page does not run behind signedIn");
  return user;
}

/** The signed-in user's role in the path's workspace; pages under /w/:workspaceId run behind `workspaceMember`, which sets it. */
export function workspaceRoleOf(c: Context<ConsoleEnv>): MemberRole {
  const role = c.get("workspaceRole");
  if (!role) throw new Error("workspaceRoleOf: the page does not run behind workspaceMember");
  return role;
}
