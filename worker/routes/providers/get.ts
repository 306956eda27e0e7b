import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { errorResponses } from "../../http/error-responses";
import { ProviderCodeParamSchema, providerOrThrow } from "./code-param";
import { ProviderSchema, providerView } from "./views";
import { upcomingOutages } from "../../catalog/outages";
import { providerClocks } from "../../catalog/provider-hours";

export const route = createRoute({
  method: "get",
  path: "/providers/{code}",
  operationId: "getProvider",
  tags: ["Catalog"],
  summary: "기관 상세",
  request: { params: ProviderCodeParamSchema },
  responses: {
    200: { description: "기관", content: { "application/json": { schema: ProviderSchema } } },
    ...errorResponses("INVALID_PROVIDER_CODE"),
  },
});

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const provider = providerOrThrow(c.req.valid("param").code);
  const [offset, outages] = await Promise.all([providerClocks(c.env)(provider), upcomingOutages(c.env.DB, Date.now(), provider.code)]);
  return c.json(providerView(provider, offset, outages.get(provider.code)), 200);
};
