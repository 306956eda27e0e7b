import { createRoute, type RouteHandler, z } from "@hono/zod-openapi";
import { receiveGatewayWebhook } from "../../domain/billing/gateway-webhooks";
import { portOneGateway } from "../../domain/billing/portone";
import type { ApiEnv } from "../context";
import { errorResponses } from "../../platform/http/error-responses";
import { behind } from "../../platform/http/route-fronts";

// The payment gateway's deliveries: its Standard Webhooks signature stands in for an API key (docs/billing.md).
export const route = behind(createRoute({
  method: "post",
  // Outside /api/v1, as the device grant is: no API key, the gateway's signature over the body instead.
  path: "/webhooks/portone",
  operationId: "receivePortOneWebhook",
  tags: ["Billing"],
  summary: "결제대행사(PortOne) 웹훅 수신",
  description:
    "파트너가 부르는 API가 아니라 결제대행사가 보내는 알림을 받는 곳입니다. Standard Webhooks 서명(webhook-id, webhook-timestamp, webhook-signature)이 PORTONE_WEBHOOK_SECRET과 맞지 않거나 5분보다 오래되면 401 WEBHOOK_SIGNATURE_INVALID입니다. 결제 완료(Transaction.Paid)는 결제대행사에 다시 조회해 확인한 뒤에만 반영하고, 빌링키 삭제(BillingKey.Deleted)는 그 카드를 지웁니다 (docs/billing.md).",
  security: [],
  responses: {
    200: { description: "받았습니다", content: { "application/json": { schema: z.object({ outcome: z.enum(["recorded", "ignored"]) }).openapi("GatewayWebhookReceipt") } } },
    ...errorResponses("WEBHOOK_SIGNATURE_INVALID", "MALFORMED_REQUEST"),
  },
}));

export const handler: RouteHandler<typeof route, ApiEnv> = async (c) => {
  // The signature covers the exact bytes sent: read them, not a parsed and re-serialised body.
  const outcome = await receiveGatewayWebhook(c.env, portOneGateway(c.env), await c.req.text(), c.req.raw.headers);
  return c.json({ outcome: outcome as "recorded" | "ignored" }, 200);
};
