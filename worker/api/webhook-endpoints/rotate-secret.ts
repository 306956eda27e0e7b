import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import { type ApiEnv, principalOf } from "../context";
import { errorResponses } from "../../platform/http/error-responses";
import { rotateSecret } from "../../domain/webhooks/endpoints";
import { EndpointIdParamSchema, WebhookEndpointWithSecretSchema } from "./shapes";
import { endpointView } from "./views";
import { managing } from "../guards";

export const route = managing("webhooks.manage", createRoute({
  method: "post",
  path: "/webhook-endpoints/{id}/rotate-secret",
  operationId: "rotateWebhookEndpointSecret",
  tags: ["Webhooks"],
  summary: "웹훅 서명 비밀 값 교체",
  description:
    "새 비밀 값을 돌려줍니다(이때만 보여 줍니다). 24시간 동안은 이전 비밀 값으로도 서명해 X-SVC-Signature에 v1=이, webhook-signature에 v1,이 둘씩 들어가므로, 그 사이에 수신기를 새 값으로 바꾸면 됩니다. 관리 권한(canManageKeys)이 있는 키만 부를 수 있고, 없으면 403 ADMIN_ACTION_FORBIDDEN입니다.",
  request: { params: EndpointIdParamSchema },
  responses: {
    201: { description: "새 비밀 값과 엔드포인트", content: { "application/json": { schema: WebhookEndpointWithSecretSchema } } },
    ...errorResponses("RESOURCE_NOT_FOUND", "ADMIN_ACTION_FORBIDDEN"),
  },
}));

export const handler: RouteHandler<typeof route, ApiEnv> = async (c) => {
  const { row, secret } = await rotateSecret(c.env.DB, c.env.VAULT_MASTER_KEY, principalOf(c).workspaceId, c.req.valid("param").id);
  return c.json({ ...endpointView(row), secret }, 201);
};
