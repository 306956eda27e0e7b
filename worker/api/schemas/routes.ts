import type { OpenAPIHono } from "@hono/zod-openapi";
import type { ApiEnv } from "../context";
import * as listSchemas from "./list";
import * as getSchema from "./get";

/** The standard record schemas. */
export function registerSchemaRoutes(api: OpenAPIHono<ApiEnv>): void {
  api.openapi(listSchemas.route, listSchemas.handler);
  api.openapi(getSchema.route, getSchema.handler);
}
