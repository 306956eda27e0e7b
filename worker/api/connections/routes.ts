import type { OpenAPIHono } from "@hono/zod-openapi";
import type { ApiEnv } from "../context";
import * as createConnection from "./create";
import * as listConnections from "./list";
import * as revokeConnection from "./revoke";

/** A partner's connections to the businesses it acts for. */
export function registerConnectionRoutes(api: OpenAPIHono<ApiEnv>): void {
  api.openapi(createConnection.route, createConnection.handler);
  api.openapi(listConnections.route, listConnections.handler);
  api.openapi(revokeConnection.route, revokeConnection.handler);
}
