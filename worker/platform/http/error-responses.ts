import { type RouteConfig, z } from "@hono/zod-openapi";
import { API_ERROR_CODES, type ApiErrorCode, catalogEntry } from "../errors/codes";
import { MAX_ERROR_TEXT, MAX_FIELD_ERRORS } from "../errors/api-error";
import { MAX } from "./bounds";

export const FieldErrorSchema = z
  .object({
    field: z.string().max(MAX_ERROR_TEXT).meta({ description: "요청 안의 위치. `body.params.dateRangeStart`, `query.limit`, `header.Idempotency-Key`처럼 출처와 경로를 점으로 잇습니다." }),
    code: z.enum(API_ERROR_CODES).meta({ description: "이 필드만으로 생긴 오류 코드" }),
    message: z.string().max(MAX_ERROR_TEXT),
  })
  .openapi("FieldError");

export const ErrorEnvelopeSchema = z
  .object({
    code: z.enum(API_ERROR_CODES),
    message: z.string().max(MAX_ERROR_TEXT).meta({ description: "한국어 안내 문구" }),
    requestId: z.string().max(MAX.id).meta({ description: "X-Request-Id 헤더와 같은 값" }),
    fieldErrors: z.array(FieldErrorSchema).max(MAX_FIELD_ERRORS).optional().meta({ description: "검증 실패일 때만. 첫 항목의 code가 봉투의 code입니다." }),
  })
  .openapi("Error");

/** Codes any route may answer: the rate limit in front of it and an unexpected failure. */
const EVERY_ROUTE: readonly ApiErrorCode[] = ["API_RATE_LIMITED", "INTERNAL_ERROR"];

/** The codes of an error response as a list (a specification extension), beside the description written for people. */
const CODES = "x-error-codes";

interface ErrorResponse {
  description: string;
  [CODES]: ApiErrorCode[];
  content: { "application/json": { schema: typeof ErrorEnvelopeSchema } };
}

function responsesFor(codes: Iterable<ApiErrorCode>): Record<number, ErrorResponse> {
  const byStatus = new Map<number, ApiErrorCode[]>();
  for (const code of new Set([...EVERY_ROUTE, ...codes])) {
    const status = catalogEntry(code).status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return Object.fromEntries(
    [...byStatus].map(([status, list]) => [
      status,
      { description: `오류: ${list.join(", ")}`, [CODES]: list, content: { "application/json": { schema: ErrorEnvelopeSchema } } },
    ]),
  );
}

/**
 * Error responses of a route, grouped by status, each listing the codes its
 * handler may answer; every route also answers the app-wide ones. What runs
 * in front of the handler adds its own codes when the app registers the
 * route (route-fronts.ts).
 */
export function errorResponses(...codes: ApiErrorCode[]) {
  return responsesFor(codes);
}

/** A route's responses with `codes` (those of what runs in front of its handler) listed before its own. */
export function withErrorCodes<T extends RouteConfig["responses"]>(responses: T, codes: readonly ApiErrorCode[]): T {
  const own = Object.entries(responses)
    .filter(([status]) => Number(status) >= 400)
    .flatMap(([status, response]) => {
      const listed = (response as Partial<ErrorResponse>)[CODES];
      if (!listed) throw new Error(`The ${status} response was not made by errorResponses(), so codes cannot be added to it`);
      return listed;
    });
  return { ...responses, ...responsesFor([...codes, ...own]) };
}
