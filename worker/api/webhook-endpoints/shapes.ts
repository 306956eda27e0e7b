import { z } from "@hono/zod-openapi";
import { WEBHOOK_EVENT_TYPES } from "../../../contracts/webhooks";
import { WEBHOOK_DELIVERY_STATUSES } from "../../domain/webhooks/tables";
import { MAX_WEBHOOK_URL_LENGTH } from "../../domain/webhooks/url";
import { count, int32, MAX, pathId, timestamp, uuid } from "../../platform/http/bounds";
import { MAX_DELIVERY_ERROR_LENGTH } from "../../domain/webhooks/deliver";
import { pageSchema } from "../../platform/http/paging";
import { EventTypeSchema, MAX_DESCRIPTION } from "../../domain/webhooks/inputs";

/** An event's body is a few hundred bytes: ids, a type and times, never records. */
const MAX_PAYLOAD_LENGTH = 65_536;
import { MAX_LOGGED_ATTEMPTS } from "../../domain/webhooks/deliveries";

export const WebhookEndpointSchema = z
  .object({
    id: uuid(),
    url: z.string().max(MAX_WEBHOOK_URL_LENGTH),
    description: z.string().max(MAX_DESCRIPTION).nullable(),
    events: z.array(EventTypeSchema).max(WEBHOOK_EVENT_TYPES.length),
    createdAt: timestamp(),
    updatedAt: timestamp(),
    previousSecretExpiresAt: timestamp().nullable().meta({ description: "비밀 값을 교체한 뒤 이전 비밀 값으로도 서명하는 기한(교체 후 24시간). 없으면 null" }),
  })
  .openapi("WebhookEndpoint");

export const WebhookEndpointWithSecretSchema = WebhookEndpointSchema.extend({
  secret: z.string().max(MAX.secret).meta({ description: "서명 비밀 값(whsec_…). 만들 때와 교체할 때만 보여 줍니다. 안전한 곳에 보관하세요." }),
}).openapi("WebhookEndpointWithSecret");

export const WebhookEndpointPageSchema = pageSchema(WebhookEndpointSchema, "WebhookEndpointPage");

const AttemptSchema = z
  .object({
    at: timestamp(),
    responseStatus: int32(100, 599).nullable().meta({ description: "수신기의 HTTP 상태. 응답이 없었으면(네트워크 오류, 10초 초과) null" }),
    durationMs: count(),
    error: z.string().max(MAX_DELIVERY_ERROR_LENGTH).nullable().meta({ description: "실패 이유(잘림). 성공이면 null" }),
    nextAttemptAt: timestamp().nullable().meta({ description: "이 시도가 잡은 재시도 시각. 성공했거나 마지막 시도면 null" }),
  })
  .openapi("WebhookDeliveryAttempt");

export const WebhookDeliverySchema = z
  .object({
    id: uuid(),
    eventId: z.string().max(MAX.id),
    eventType: EventTypeSchema,
    status: z.enum(WEBHOOK_DELIVERY_STATUSES).meta({ description: "PENDING(보내는 중, 재시도 대기 포함) → SUCCEEDED(2xx 응답) | FAILED(24시간 재시도 끝)" }),
    attemptCount: count(),
    nextAttemptAt: timestamp().nullable(),
    retryUntil: timestamp().meta({ description: "이 시각이 지나면 더 보내지 않습니다(이벤트 또는 재전송 후 24시간)" }),
    createdAt: timestamp(),
    attempts: z.array(AttemptSchema).max(MAX_LOGGED_ATTEMPTS).meta({ description: "시도 기록, 오래된 것부터 (최근 50회)" }),
    payload: z.string().max(MAX_PAYLOAD_LENGTH).meta({ description: "보낸 본문 그대로(서명 대상)" }),
  })
  .openapi("WebhookDelivery");

export const WebhookDeliveryPageSchema = pageSchema(WebhookDeliverySchema, "WebhookDeliveryPage");

export const EndpointIdParamSchema = z.object({ id: pathId().meta({ param: { name: "id", in: "path" } }) });
export const DeliveryIdParamSchema = EndpointIdParamSchema.extend({ deliveryId: pathId().meta({ param: { name: "deliveryId", in: "path" } }) });

