import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import { type ApiEnv, principalOf } from "../context";
import { errorResponses } from "../../platform/http/error-responses";
import { findEndpoint } from "../../domain/webhooks/endpoints";
import { EndpointIdParamSchema, WebhookEndpointSchema } from "./shapes";
import { endpointView } from "./views";
import { keyed } from "../guards";

export const route = keyed(createRoute({
  method: "get",
  path: "/webhook-endpoints/{id}",
  operationId: "getWebhookEndpoint",
  tags: ["Webhooks"],
  summary: "웹훅 엔드포인트 조회",
  description: "다른 워크스페이스의 엔드포인트는 없는 것과 같이 404 RESOURCE_NOT_FOUND입니다.",
  request: { params: EndpointIdParamSchema },
  responses: {
    200: { description: "엔드포인트", content: { "application/json": { schema: WebhookEndpointSchema } } },
    ...errorResponses("RESOURCE_NOT_FOUND"),
  },
}));

export const handler: RouteHandler<typeof route, ApiEnv> = async (c) =>
  c.json(endpointView(await findEndpoint(c.env.DB, principalOf(c).workspaceId, c.req.valid("param").id)), 200);
