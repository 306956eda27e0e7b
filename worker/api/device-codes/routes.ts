import type { OpenAPIHono } from "@hono/zod-openapi";
import type { ApiEnv } from "../context";
import * as createDeviceCode from "./create";
import * as pollDeviceCode from "./token";

/** Device-code login (RFC 8628): a command-line client has no API key yet, so these live on the root app, outside /api/v1. */
export function registerDeviceCodeRoutes(app: OpenAPIHono<ApiEnv>): void {
  app.openapi(createDeviceCode.route, createDeviceCode.handler);
  app.openapi(pollDeviceCode.route, pollDeviceCode.handler);
}
