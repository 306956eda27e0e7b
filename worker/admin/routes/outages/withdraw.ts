import { createRoute, type RouteHandler, z } from "@hono/zod-openapi";
import { withdrawOutage } from "../../../catalog/outages";
import type { AppEnv } from "../../../env";
import { ApiError } from "../../../errors/api-error";
import { errorResponses } from "../../../http/error-responses";
import { jsonBody } from "../../../http/json-body";
import { code, pathId } from "../../../http/bounds";
import { markAction } from "../../../operators/audit";
import { operatorOf } from "../../../operators/authenticate";
import { ReasonBodySchema } from "../../shapes";
import { OutageSchema } from "./shapes";
import { outageView } from "./views";

export const route = createRoute({
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
});

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const { code: providerCode, id } = c.req.valid("param");
  await markAction(c.env.DB, operatorOf(c), c.get("requestId"), { action: "outage.withdraw", targetKind: "outage", targetId: id, reason: c.req.valid("json").reason, detail: { providerCode } });
  const withdrawn = await withdrawOutage(c.env.DB, providerCode, id);
  if (!withdrawn) throw new ApiError("RESOURCE_NOT_FOUND", { message: "철회할 장애·점검 등록을 찾을 수 없습니다." });
  return c.json(outageView(withdrawn), 200);
};
