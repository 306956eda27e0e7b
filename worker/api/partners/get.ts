import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import type { ApiEnv } from "../context";
import { errorResponses } from "../../platform/http/error-responses";
import { partnerActingFor } from "../../domain/partners/connections";
import { provenBusinessOf } from "./business-self";
import { ActingPartnerSchema, actingPartnerView, PartnerIdParamSchema } from "./shapes";
import { keyed } from "../guards";

export const route = keyed(createRoute({
  method: "get",
  path: "/partners/{id}",
  operationId: "getActingPartner",
  tags: ["Partners"],
  summary: "내 사업자를 대신해 일하는 파트너 조회",
  description: "이 사업자에 연결된 파트너 하나. 그런 파트너가 없거나 연결이 해지되었으면 404 PARTNER_NOT_FOUND입니다.",
  request: { params: PartnerIdParamSchema },
  responses: {
    200: { description: "파트너", content: { "application/json": { schema: ActingPartnerSchema } } },
    ...errorResponses("WORKSPACE_ACCESS_DENIED", "PARTNER_NOT_FOUND"),
  },
}));

export const handler: RouteHandler<typeof route, ApiEnv> = async (c) =>
  c.json(actingPartnerView(await partnerActingFor(c.env.DB, await provenBusinessOf(c), c.req.valid("param").id)), 200);
