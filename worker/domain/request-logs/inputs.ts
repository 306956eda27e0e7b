import { z } from "@hono/zod-openapi";
import { ApiError, fieldError } from "../../platform/errors/api-error";
import { PageQuerySchema } from "../../platform/http/paging";

/** A status filter's terms: an exact status (429) or a class (4xx); at most this many, comma-separated. */
const MAX_STATUS_TERMS = 10;
const STATUS_TERM = /^[1-5](\d\d|xx)$/;
export const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"] as const;

/** Which rows a list shows: the API's query and the console's filter form, checked by this one schema. */
export const RequestLogFilterSchema = z.object({
  status: z
    .string()
    .max(MAX_STATUS_TERMS * 4)
    .transform((v) => v.split(",").map((term) => term.trim().toLowerCase()).filter(Boolean))
    .pipe(z.array(z.string().regex(STATUS_TERM)).max(MAX_STATUS_TERMS))
    .optional()
    .meta({ pattern: "^[0-9xX, ]*$", description: `HTTP 상태 필터. 정확한 값(429)이나 범위(4xx), 쉼표로 구분해 ${MAX_STATUS_TERMS}개까지. 예: 4xx,500`, example: "4xx" }),
  errorCode: z
    .string()
    .max(64)
    .regex(/^[A-Z][A-Z0-9_]*$/)
    .optional()
    .meta({ description: "오류 봉투의 code 필터 (예: INVALID_PARAM_FORMAT)", example: "API_RATE_LIMITED" }),
  keyId: z.uuid().max(36).optional().meta({ description: "이 API 키(키 목록의 id)로 보낸 요청만" }),
  method: z.enum(METHODS).optional().meta({ description: "HTTP 메서드 필터" }),
  path: z
    .string()
    .max(512)
    .regex(/^\/\S*$/)
    .optional()
    .meta({ description: "경로 필터: 이 경로와 그 아래 경로(앞부분 일치). 예: /api/v1/data-jobs", example: "/api/v1/data-jobs" }),
  from: z.iso.datetime({ offset: true }).max(40).optional().meta({ description: "이 시각 이후에 받은 요청만 (포함, ISO 8601)" }),
  to: z.iso.datetime({ offset: true }).max(40).optional().meta({ description: "이 시각 전에 받은 요청만 (제외, ISO 8601)" }),
});

/** A list's whole query: a page of the filtered log. */
export const RequestLogQuerySchema = PageQuerySchema.extend(RequestLogFilterSchema.shape);

export type RequestLogFilterInput = z.infer<typeof RequestLogFilterSchema>;

/** What the store filters by: statuses split into exact values and classes, times as epoch milliseconds. */
export interface RequestLogFilter {
  statuses?: number[];
  statusClasses?: number[];
  errorCode?: string;
  apiKeyId?: string;
  method?: string;
  pathPrefix?: string;
  from?: number;
  to?: number;
}

/** The checked input as the store takes it; a range that ends before it starts is 400 DATE_RANGE_INVALID. */
export function requestLogFilter(input: RequestLogFilterInput): RequestLogFilter {
  const from = input.from === undefined ? undefined : Date.parse(input.from);
  const to = input.to === undefined ? undefined : Date.parse(input.to);
  if (from !== undefined && to !== undefined && from >= to) {
    const message = "from은 to보다 이른 시각이어야 합니다. 기간을 확인해 주세요.";
    throw new ApiError("DATE_RANGE_INVALID", { message, fieldErrors: [fieldError("query.from", "DATE_RANGE_INVALID", message)] });
  }
  const terms = input.status ?? [];
  return {
    statuses: terms.filter((t) => !t.endsWith("xx")).map(Number),
    statusClasses: terms.filter((t) => t.endsWith("xx")).map((t) => Number(t[0])),
    errorCode: input.errorCode,
    apiKeyId: input.keyId,
    method: input.method,
    pathPrefix: input.path,
    from,
    to,
  };
}
