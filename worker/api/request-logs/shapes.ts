import { z } from "@hono/zod-openapi";
import { code, count, int32, MAX, pathId, timestamp, uuid } from "../../platform/http/bounds";
import { ErrorEnvelopeSchema } from "../../platform/http/error-responses";
import { pageSchema } from "../../platform/http/paging";

export const RequestIdParamSchema = z.object({
  requestId: pathId().meta({ param: { name: "requestId", in: "path" }, description: "요청의 X-Request-Id (오류 봉투의 requestId)", example: "req_3f2a9c0e5b7d4e1fa0c6b2d8e4f1a7c3" }),
});

export const RequestLogSchema = z
  .object({
    requestId: z.string().max(MAX.id).meta({ description: "X-Request-Id 헤더와 오류 봉투의 requestId" }),
    createdAt: timestamp().meta({ description: "요청을 받은 시각" }),
    method: z.string().max(16).meta({ description: "HTTP 메서드", example: "POST" }),
    path: z.string().max(512).meta({ description: "쿼리를 뺀 경로" }),
    status: int32(100, 599).meta({ description: "응답한 HTTP 상태" }),
    errorCode: code().nullable().meta({ description: "오류 봉투의 code. 성공이면 null" }),
    latencyMs: count().meta({ description: "요청을 받은 때부터 응답할 때까지 (밀리초)" }),
    apiKey: z
      .object({ id: uuid(), prefix: z.string().max(MAX.name).meta({ description: "키의 앞부분. 키 목록의 prefix와 같습니다" }) })
      .meta({ description: "요청에 쓴 API 키. 키 자체는 기록하지 않습니다" }),
    idempotencyKey: z.string().max(128).nullable().meta({ description: "요청의 Idempotency-Key 헤더. 없으면 null" }),
    repeatCount: count().meta({
      description: "이 행이 나타내는 요청 수. 속도 제한의 429 API_RATE_LIMITED는 키와 분마다 한 행(그 분의 첫 요청)에 모아 세고, 같은 작업 조회(GET /data-jobs/{id})에 같은 200 응답을 받은 요청도 키와 분마다 한 행에 모아 셉니다. 다른 요청은 1입니다",
      example: 1,
    }),
  })
  .openapi("RequestLog");

/** A part of a request past its bound in the log (domain/request-logs/entry.ts): its size and its first characters. */
const TruncatedSchema = z
  .object({
    "[TRUNCATED]": z.literal(true),
    bytes: count().meta({ description: "가린 뒤 JSON의 크기 (UTF-8 바이트)" }),
    preview: z.string().max(1024).meta({ description: "가린 뒤 JSON의 앞부분" }),
  })
  .meta({ description: "한 행의 한도(쿼리 1 KB, 본문 2 KB, 오류 봉투 1 KB)를 넘어 잘린 부분" })
  .openapi("RequestLogTruncated");

export const RequestLogPageSchema = pageSchema(RequestLogSchema, "RequestLogPage");

export const RequestLogDetailSchema = RequestLogSchema.extend({
  request: z
    .object({
      query: z.record(z.string().max(500), z.unknown()).nullable().meta({ description: "쿼리 문자열. 비밀 값은 [REDACTED], 카드 번호는 끝 네 자리만([CARD ****1234]) 남깁니다. 1 KB를 넘으면 RequestLogTruncated 모양" }),
      body: z.unknown().meta({
        description:
          "라우트가 읽은 JSON 본문. 본문을 남기는 라우트(문서의 x-request-log-body)만 기록합니다. 비밀번호, 토큰, 키, 인증서, 자격 증명 필드(fields 객체 전체)의 값은 [REDACTED], 카드 번호는 끝 네 자리만 남깁니다. 2 KB를 넘으면 RequestLogTruncated 모양. 본문이 없거나 JSON이 아니거나 읽기 전에 거절되었거나 남기지 않는 라우트면 null",
      }),
    })
    .meta({ description: "가린 뒤의 요청 (docs/request-logs.md의 가림 규칙)" }),
  errorBody: z.union([ErrorEnvelopeSchema, TruncatedSchema]).nullable().meta({ description: "받은 오류 봉투. 성공이거나 속도 제한의 429이면 null, 1 KB를 넘으면 잘린 모양" }),
}).openapi("RequestLogDetail");
