import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import type { ApiEnv } from "../context";
import { errorResponses } from "../../platform/http/error-responses";
import { ProviderCodeParamSchema, providerOrThrow } from "../../web/provider-code-param";
import { ProviderSchema, providerView } from "./views";
import { liveProviders } from "../../domain/catalog/live";
import { keyed } from "../guards";

export const route = keyed(createRoute({
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
}));

export const handler: RouteHandler<typeof route, ApiEnv> = async (c) => {
  const provider = providerOrThrow(c.req.valid("param").code);
  return c.json(providerView(provider, (await liveProviders(c.env, [provider])).get(provider.code)!), 200);
};
