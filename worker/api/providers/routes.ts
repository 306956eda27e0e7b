import type { OpenAPIHono } from "@hono/zod-openapi";
import type { ApiEnv } from "../context";
import * as listProviders from "./list";
import * as getProvider from "./get";
import * as getCredentialSchema from "./credential-schema";

/** The institutions data is collected from, and what each asks for a credential. */
export function registerProviderRoutes(api: OpenAPIHono<ApiEnv>): void {
  api.openapi(listProviders.route, listProviders.handler);
  api.openapi(getProvider.route, getProvider.handler);
  api.openapi(getCredentialSchema.route, getCredentialSchema.handler);
}
