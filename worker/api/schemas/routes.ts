import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import * as listSchemas from "./list";
import * as getSchema from "./get";

/** The standard record schemas. */
export function registerSchemaRoutes(api: OpenAPIHono<AppEnv>): void {
  api.openapi(listSchemas.route, listSchemas.handler);
  api.openapi(getSchema.route, getSchema.handler);
}
