import { withdrawProviderOutage } from "../../../domain/operators/actions";
import { actorOf, type AdminApiEnv } from "../../context";
import { createRoute, type RouteHandler, z } from "@hono/zod-openapi";
import { errorResponses } from "../../../platform/http/error-responses";
import { jsonBody } from "../../../platform/http/json-body";
import { code, pathId } from "../../../platform/http/bounds";
import { ReasonBodySchema } from "../shapes";
import { OutageSchema } from "./shapes";
import { outageView } from "./views";
import { operating } from "../guards";

export const route = operating("outages.manage", createRoute({
  method: "post",
  path: "/providers/{code}/outages/{id}/withdraw",
  operationId: "withdrawProviderOutage",
  tags: ["Providers"],
  summary: "등록한 장애·점검 철회",
  description: "곧바로 점검 달력에서 빠집니다. 없는 것이나 이미 철회한 것은 404 RESOURCE_NOT_FOUND입니다.",
  request: {
    params: z.object({ code: code().meta({ param: { name: "code", in: "path" } }), id: pathId().meta({ param: { name: "id", in: "path" } }) }),
    ...jsonBody(ReasonBodySchema),
  },
  responses: {
    200: { description: "철회한 장애·점검", content: { "application/json": { schema: OutageSchema } } },
    ...errorResponses("RESOURCE_NOT_FOUND"),
  },
}));

export const handler: RouteHandler<typeof route, AdminApiEnv> = async (c) => {
  const { code: providerCode, id } = c.req.valid("param");
  return c.json(outageView(await withdrawProviderOutage(c.env, actorOf(c), providerCode, id, c.req.valid("json").reason)), 200);
};
