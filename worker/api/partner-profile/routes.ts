import type { OpenAPIHono } from "@hono/zod-openapi";
import type { ApiEnv } from "../context";
import * as getPartnerProfile from "./get";
import * as updatePartnerProfile from "./update";
import * as openBankingKeys from "./open-banking-keys";

/** The partner's own profile, as its businesses see it. */
export function registerPartnerProfileRoutes(api: OpenAPIHono<ApiEnv>): void {
  api.openapi(getPartnerProfile.route, getPartnerProfile.handler);
  api.openapi(updatePartnerProfile.route, updatePartnerProfile.handler);
  api.openapi(openBankingKeys.putRoute, openBankingKeys.putHandler);
  api.openapi(openBankingKeys.deleteRoute, openBankingKeys.deleteHandler);
}
