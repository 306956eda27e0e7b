import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import { type ApiEnv, principalOf } from "../context";
import { errorResponses } from "../../platform/http/error-responses";
import { deleteEndpoint } from "../../domain/webhooks/endpoints";
import { EndpointIdParamSchema } from "./shapes";
import { managing } from "../guards";

export const route = managing("webhooks.manage", createRoute({
  method: "delete",
  path: "/webhook-endpoints/{id}",
  operationId: "deleteWebhookEndpoint",
  tags: ["Webhooks"],
  summary: "웹훅 엔드포인트 삭제",
  description: "엔드포인트와 전송 기록을 지웁니다. 재시도를 기다리던 전송도 더 보내지 않습니다. 관리 권한(canManageKeys)이 있는 키만 부를 수 있고, 없으면 403 ADMIN_ACTION_FORBIDDEN입니다.",
  request: { params: EndpointIdParamSchema },
  responses: {
    204: { description: "삭제되었습니다" },
    ...errorResponses("RESOURCE_NOT_FOUND", "ADMIN_ACTION_FORBIDDEN"),
  },
}));

export const handler: RouteHandler<typeof route, ApiEnv> = async (c) => {
  await deleteEndpoint(c.env.DB, principalOf(c).workspaceId, c.req.valid("param").id);
  return c.body(null, 204);
};
