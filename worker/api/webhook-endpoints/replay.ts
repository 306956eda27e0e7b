import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import { type ApiEnv, principalOf } from "../context";
import { errorResponses } from "../../platform/http/error-responses";
import { findEndpoint } from "../../domain/webhooks/endpoints";
import { replayWebhook } from "../../domain/webhooks/emit";
import { DeliveryIdParamSchema, WebhookDeliverySchema } from "./shapes";
import { deliveryView } from "./views";
import { managing } from "../guards";

export const route = managing("webhooks.manage", createRoute({
  method: "post",
  path: "/webhook-endpoints/{id}/deliveries/{deliveryId}/replay",
  operationId: "replayWebhookDelivery",
  tags: ["Webhooks"],
  summary: "웹훅 다시 보내기",
  description:
    "같은 본문(같은 이벤트 id)을 새 시도로 곧바로 다시 보내고, 실패하면 다시 24시간 동안 재시도합니다. 수신기는 이벤트 id로 중복을 거르세요. 관리 권한(canManageKeys)이 있는 키만 부를 수 있고, 없으면 403 ADMIN_ACTION_FORBIDDEN입니다.",
  request: { params: DeliveryIdParamSchema },
  responses: {
    202: { description: "다시 보내도록 대기열에 넣은 전송", content: { "application/json": { schema: WebhookDeliverySchema } } },
    ...errorResponses("RESOURCE_NOT_FOUND", "ADMIN_ACTION_FORBIDDEN"),
  },
}));

export const handler: RouteHandler<typeof route, ApiEnv> = async (c) => {
  const params = c.req.valid("param");
  const endpoint = await findEndpoint(c.env.DB, principalOf(c).workspaceId, params.id);
  return c.json(deliveryView(await replayWebhook(c.env, endpoint.id, params.deliveryId)), 202);
};
