import { z } from "@hono/zod-openapi";
import { WEBHOOK_EVENT_TYPES } from "../../../contracts/webhooks";
import { MAX_WEBHOOK_URL_LENGTH } from "./url";

export const MAX_DESCRIPTION = 256;
export const EventTypeSchema = z.enum(WEBHOOK_EVENT_TYPES).meta({ description: "data_job.succeeded, data_job.failed, registration_session.consumed, .cancelled, .expired, .locked, credential.expiring (인증서나 소유자 동의 만료 30, 7, 1일 전), credential.revoked (소유자가 동의 철회, revokedReason), schedule.paused (연속 실패로 일정이 일시 중지됨)" });

const url = z.string().max(MAX_WEBHOOK_URL_LENGTH).meta({
  description: "이벤트를 받을 https URL. 사설, 루프백, 링크 로컬, 예약 주소와 localhost는 받지 않습니다(400 PARTNER_WEBHOOK_URL_INVALID).",
  example: "https://partner.example/webhooks/collect",
});
const events = z
  .array(EventTypeSchema)
  .min(1)
  .max(WEBHOOK_EVENT_TYPES.length)
  .refine((list) => new Set(list).size === list.length, "같은 이벤트를 두 번 넣을 수 없습니다.")
  .meta({ description: "받을 이벤트 종류, 하나 이상", example: ["data_job.succeeded", "data_job.failed"] });
const description = z.string().max(MAX_DESCRIPTION).meta({ description: "알아보기 위한 설명, 최대 256자", example: "운영 수신기" });

export const CreateEndpointBodySchema = z.object({ url, events, description: description.optional() });

export const UpdateEndpointBodySchema = z
  .object({ url: url.optional(), events: events.optional(), description: description.nullable().optional() })
  .meta({ description: "보낸 필드만 바뀝니다. description에 null을 보내면 지웁니다." });
