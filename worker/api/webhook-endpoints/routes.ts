import type { OpenAPIHono } from "@hono/zod-openapi";
import type { ApiEnv } from "../context";
import * as createWebhookEndpoint from "./create";
import * as listWebhookEndpoints from "./list";
import * as getWebhookEndpoint from "./get";
import * as updateWebhookEndpoint from "./update";
import * as deleteWebhookEndpoint from "./delete";
import * as rotateWebhookEndpointSecret from "./rotate-secret";
import * as listWebhookDeliveries from "./deliveries";
import * as replayWebhookDelivery from "./replay";

/** Webhook endpoints belong to the key's own workspace; a partner's hear of its businesses' events too (domain/webhooks/emit.ts). */
export function registerWebhookEndpointRoutes(api: OpenAPIHono<ApiEnv>): void {
  api.openapi(createWebhookEndpoint.route, createWebhookEndpoint.handler);
  api.openapi(listWebhookEndpoints.route, listWebhookEndpoints.handler);
  api.openapi(getWebhookEndpoint.route, getWebhookEndpoint.handler);
  api.openapi(updateWebhookEndpoint.route, updateWebhookEndpoint.handler);
  api.openapi(deleteWebhookEndpoint.route, deleteWebhookEndpoint.handler);
  api.openapi(rotateWebhookEndpointSecret.route, rotateWebhookEndpointSecret.handler);
  api.openapi(listWebhookDeliveries.route, listWebhookDeliveries.handler);
  api.openapi(replayWebhookDelivery.route, replayWebhookDelivery.handler);
}
