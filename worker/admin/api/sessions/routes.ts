import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AdminApiEnv } from "../../context";
import * as signIn from "./create";
import * as signOut from "./delete";

/** Operators sign in for a session and sign out of it. */
export function registerSessionRoutes(api: OpenAPIHono<AdminApiEnv>): void {
  api.openapi(signIn.route, signIn.handler);
  api.openapi(signOut.route, signOut.handler);
}
