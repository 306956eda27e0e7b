import { createRoute, type RouteHandler, z } from "@hono/zod-openapi";
import { MAX_UPCOMING_OUTAGES, upcomingOutageRows } from "../../../domain/catalog/outages";
import type { AdminApiEnv } from "../../context";
import { errorResponses } from "../../../platform/http/error-responses";
import { ProviderCodeParamSchema, providerOrThrow } from "../../../web/provider-code-param";
import { OutageSchema } from "./shapes";
import { outageView } from "./views";
import { behind } from "../../../platform/http/route-fronts";
import { OPERATOR_SESSION, operatorsMay } from "../authenticate";

export const route = behind(createRoute({
  method: "get",
  path: "/providers/{code}/outages",
  operationId: "listProviderOutages",
  tags: ["Providers"],
  summary: "등록된 장애·점검",
  description: "아직 끝나지 않았고 철회되지 않은 것, 시작이 이른 것부터.",
  request: { params: ProviderCodeParamSchema },
  responses: {
    200: { description: "장애·점검", content: { "application/json": { schema: z.object({ items: z.array(OutageSchema).max(MAX_UPCOMING_OUTAGES) }).openapi("ProviderOutageList") } } },
    ...errorResponses("INVALID_PROVIDER_CODE"),
  },
}), OPERATOR_SESSION, operatorsMay("workspaces.read"));

export const handler: RouteHandler<typeof route, AdminApiEnv> = async (c) => {
  const provider = providerOrThrow(c.req.valid("param").code);
  return c.json({ items: (await upcomingOutageRows(c.env.DB, Date.now(), provider.code)).map(outageView) }, 200);
};
