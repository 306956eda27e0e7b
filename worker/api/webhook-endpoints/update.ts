import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import { type ApiEnv, principalOf } from "../context";
import { errorResponses } from "../../platform/http/error-responses";
import { jsonBody } from "../../platform/http/json-body";
import { updateEndpoint } from "../../domain/webhooks/endpoints";
import { checkWebhookUrl, localUrlsAllowed } from "../../domain/webhooks/url";
import { EndpointIdParamSchema, WebhookEndpointSchema } from "./shapes";
import { UpdateEndpointBodySchema } from "../../domain/webhooks/inputs";
import { endpointView } from "./views";
import { managing } from "../guards";
import { LOGS_BODY } from "../request-log";

export const route = managing("webhooks.manage", createRoute({
  method: "patch",
  path: "/webhook-endpoints/{id}",
  operationId: "updateWebhookEndpoint",
  tags: ["Webhooks"],
  summary: "웹훅 엔드포인트 수정",
  description: "url, events, description 중 보낸 것만 바꿉니다. 이미 만든 전송은 바꾼 url로 보냅니다. 관리 권한(canManageKeys)이 있는 키만 부를 수 있고, 없으면 403 ADMIN_ACTION_FORBIDDEN입니다.",
  request: { params: EndpointIdParamSchema, ...jsonBody(UpdateEndpointBodySchema) },
  responses: {
    200: { description: "수정된 엔드포인트", content: { "application/json": { schema: WebhookEndpointSchema } } },
    ...errorResponses("RESOURCE_NOT_FOUND", "PARTNER_WEBHOOK_URL_INVALID", "INVALID_PARAM_FORMAT", "ADMIN_ACTION_FORBIDDEN"),
  },
}), LOGS_BODY);

export const handler: RouteHandler<typeof route, ApiEnv> = async (c) => {
  const body = c.req.valid("json");
  const row = await updateEndpoint(c.env.DB, principalOf(c).workspaceId, c.req.valid("param").id, {
    ...(body.url !== undefined ? { url: checkWebhookUrl(body.url, localUrlsAllowed(c.env)) } : {}),
    ...(body.events !== undefined ? { events: body.events } : {}),
    ...(body.description !== undefined ? { description: body.description } : {}),
  });
  return c.json(endpointView(row), 200);
};
