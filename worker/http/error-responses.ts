import { z } from "@hono/zod-openapi";
import { API_ERROR_CODES, type ApiErrorCode, catalogEntry } from "../errors/codes";

export const FieldErrorSchema = z
  .object({
    field: z.string().meta({ description: "요청 안의 위치. `body.params.dateRangeStart`, `query.limit`, `header.Idempotency-Key`처럼 출처와 경로를 점으로 잇습니다." }),
    code: z.enum(API_ERROR_CODES).meta({ description: "이 필드만으로 생긴 오류 코드" }),
    message: z.string(),
  })
  .openapi("FieldError");

export const ErrorEnvelopeSchema = z
  .object({
    code: z.enum(API_ERROR_CODES),
    message: z.string().meta({ description: "한국어 안내 문구" }),
    requestId: z.string().meta({ description: "X-Request-Id 헤더와 같은 값" }),
    fieldErrors: z.array(FieldErrorSchema).optional().meta({ description: "검증 실패일 때만. 첫 항목의 code가 봉투의 code입니다." }),
  })
  .openapi("Error");

/**
 * Error responses of a route, grouped by status, each listing the codes it
 * may answer; every route also answers the app-wide ones.
 */
export function errorResponses(...codes: ApiErrorCode[]) {
  const all: ApiErrorCode[] = ["INVALID_TOKEN", "TOKEN_EXPIRED", "API_RATE_LIMITED", "INTERNAL_ERROR", ...codes];
  const byStatus = new Map<number, ApiErrorCode[]>();
  for (const code of all) {
    const status = catalogEntry(code).status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return Object.fromEntries(
    [...byStatus].map(([status, list]) => [
      status,
      { description: `오류: ${list.join(", ")}`, content: { "application/json": { schema: ErrorEnvelopeSchema } } },
    ]),
  );
}
