import type { OpenAPIHono } from "@hono/zod-openapi";
import type { ApiEnv } from "../context";
import * as createRegistrationSession from "./create";
import * as getRegistrationSession from "./get";
import * as cancelRegistrationSession from "./cancel";

/** Sessions of the hosted registration UI, where a business's end-user registers its credentials (api/connect/routes.ts). */
export function registerRegistrationSessionRoutes(api: OpenAPIHono<ApiEnv>): void {
  api.openapi(createRegistrationSession.route, createRegistrationSession.handler, createRegistrationSession.hook);
  api.openapi(getRegistrationSession.route, getRegistrationSession.handler);
  api.openapi(cancelRegistrationSession.route, cancelRegistrationSession.handler);
}
