import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import { type ApiEnv, principalOf } from "../context";
import { errorResponses } from "../../platform/http/error-responses";
import { jsonBody } from "../../platform/http/json-body";
import { createEndpoint } from "../../domain/webhooks/endpoints";
import { checkWebhookUrl, localUrlsAllowed } from "../../domain/webhooks/url";
import { WebhookEndpointWithSecretSchema } from "./shapes";
import { CreateEndpointBodySchema } from "../../domain/webhooks/inputs";
import { endpointView } from "./views";
import { managing } from "../guards";
import { LOGS_BODY } from "../request-log";

export const route = managing("webhooks.manage", createRoute({
  method: "post",
  path: "/webhook-endpoints",
  operationId: "createWebhookEndpoint",
  tags: ["Webhooks"],
  summary: "웹훅 엔드포인트 등록",
  description:
    "고른 이벤트가 생길 때마다 url로 서명된 POST를 보냅니다(X-SVC-Signature: t=…,v1=…, 그리고 Standard Webhooks의 webhook-id, webhook-timestamp, webhook-signature: 그 표준의 라이브러리로 검증할 수 있습니다). 응답의 secret은 이때만 보여 주니 보관해 두세요. 파트너의 엔드포인트는 연결된 사업자들의 이벤트도 받습니다. 자세한 내용은 docs/webhooks.md. 관리 권한(canManageKeys)이 있는 키만 부를 수 있고, 없으면 403 ADMIN_ACTION_FORBIDDEN입니다.",
  request: jsonBody(CreateEndpointBodySchema),
  responses: {
    201: { description: "등록된 엔드포인트와 서명 비밀 값", content: { "application/json": { schema: WebhookEndpointWithSecretSchema } } },
    ...errorResponses("PARTNER_WEBHOOK_URL_INVALID", "INVALID_PARAM_FORMAT", "MISSING_REQUIRED_PARAM", "ADMIN_ACTION_FORBIDDEN"),
  },
}), LOGS_BODY);

export const handler: RouteHandler<typeof route, ApiEnv> = async (c) => {
  const body = c.req.valid("json");
  const url = checkWebhookUrl(body.url, localUrlsAllowed(c.env));
  const { row, secret } = await createEndpoint(c.env.DB, c.env.VAULT_MASTER_KEY, principalOf(c).workspaceId, {
    url,
    events: body.events,
    description: body.description ?? null,
  });
  return c.json({ ...endpointView(row), secret }, 201);
};
