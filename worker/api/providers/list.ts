import { createRoute, type RouteHandler, z } from "@hono/zod-openapi";
import { allProviders } from "../../domain/catalog/providers";
import type { ApiEnv } from "../context";
import { errorResponses } from "../../platform/http/error-responses";
import { MAX } from "../../platform/http/bounds";
import { ProviderSchema, providerView } from "./views";
import { liveProviders } from "../../domain/catalog/live";
import { keyed } from "../guards";

export const route = keyed(createRoute({
  method: "get",
  path: "/providers",
  operationId: "listProviders",
  tags: ["Catalog"],
  summary: "기관 목록",
  responses: {
    200: { description: "사용 가능한 기관", content: { "application/json": { schema: z.object({ items: z.array(ProviderSchema).max(MAX.items) }) } } },
    ...errorResponses(),
  },
}));

export const handler: RouteHandler<typeof route, ApiEnv> = async (c) => {
  const live = await liveProviders(c.env, allProviders());
  return c.json({ items: allProviders().map((p) => providerView(p, live.get(p.code)!)) }, 200);
};
