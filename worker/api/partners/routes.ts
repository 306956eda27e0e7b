import type { OpenAPIHono } from "@hono/zod-openapi";
import type { ApiEnv } from "../context";
import * as listActingPartners from "./list";
import * as getActingPartner from "./get";
import * as revokeActingPartner from "./revoke";

/** The partners acting for the key's business. */
export function registerPartnerRoutes(api: OpenAPIHono<ApiEnv>): void {
  api.openapi(listActingPartners.route, listActingPartners.handler);
  api.openapi(getActingPartner.route, getActingPartner.handler);
  api.openapi(revokeActingPartner.route, revokeActingPartner.handler);
}
