import type { OpenAPIHono, RouteConfig } from "@hono/zod-openapi";
import type { AppEnv } from "./app-env";

/**
 * The rate headers api/rate-limit.ts puts on every response (the spec's `X-RateLimit-Limit-Minute`,
 * `X-RateLimit-Limit-Hour`, `X-RateLimit-Remaining`), and the `Retry-After` of every 429 (API_RATE_LIMITED and the
 * plan and concurrency caps), as the document declares them: once under components.headers, referenced from every
 * response of every route by behind() (route-fronts.ts). `Server-Timing` joins them there: any response may carry it.
 */
export const RATE_LIMIT_HEADERS = {
  "X-RateLimit-Limit-Minute": "요청 한도: 1분에 보낼 수 있는 요청 수",
  "X-RateLimit-Limit-Hour": "요청 한도: 1시간에 보낼 수 있는 요청 수",
  "X-RateLimit-Remaining": "지금 창에서 남은 요청 수 (분, 시간 중 적은 쪽)",
} as const;

export const RETRY_AFTER = "Retry-After";

/** Present only when the request paid a round trip beyond the worker's own work (platform/http/server-timing.ts). */
const SERVER_TIMING = "Server-Timing";

/** A month is the longest wait a 429 names (a free plan's monthly cap); the request rate's is at most an hour. */
const MAX_RETRY_AFTER_SECONDS = 31 * 86_400;

const INT32_MAX = 2_147_483_647;

const componentName = (header: string) => header.replaceAll("-", "");
const ref = (header: string) => ({ $ref: `#/components/headers/${componentName(header)}` });

const HEADER_OBJECTS = {
  ...Object.fromEntries(
    Object.entries(RATE_LIMIT_HEADERS).map(([name, description]) => [
      name,
      // Not `required`: a failure of the rate gate itself (500) goes without them (docs/security.md, "Rate headers everywhere").
      { description, schema: { type: "integer", format: "int32", minimum: 0, maximum: INT32_MAX } },
    ]),
  ),
  [SERVER_TIMING]: {
    description: "이 요청이 기다린 내부 단계와 시간(W3C Server-Timing: gate 요청 한도 확인, r2 결과 저장소 읽기, cache 엣지 캐시). 기다린 단계가 없으면 없습니다.",
    schema: { type: "string", maxLength: 200 },
  },
  [RETRY_AFTER]: {
    description: "다시 보내기 전에 기다릴 시간(초)",
    required: true,
    schema: { type: "integer", format: "int32", minimum: 0, maximum: MAX_RETRY_AFTER_SECONDS },
  },
};

/** Puts the header objects in the document's components, where the references of withRateHeaders() point. */
export function registerRateHeaders<E extends AppEnv>(app: OpenAPIHono<E>): void {
  for (const [name, header] of Object.entries(HEADER_OBJECTS)) app.openAPIRegistry.registerComponent("headers", componentName(name), header as never);
}

type Responses = RouteConfig["responses"];

/** Every response with the rate headers, a 429 with Retry-After too. A route declares its own headers as header objects. */
export function withRateHeaders<T extends Responses>(responses: T): T {
  return Object.fromEntries(
    Object.entries(responses).map(([status, response]) => {
      const own = (response as { headers?: unknown }).headers;
      if (own !== undefined && (typeof own !== "object" || own === null || "_zod" in own)) {
        throw new Error(`The ${status} response declares its headers as a zod schema; declare them as header objects so the rate headers can join them`);
      }
      const names = [...Object.keys(RATE_LIMIT_HEADERS), SERVER_TIMING, ...(status === "429" ? [RETRY_AFTER] : [])];
      return [status, { ...response, headers: { ...(own as object | undefined), ...Object.fromEntries(names.map((name) => [name, ref(name)])) } }];
    }),
  ) as T;
}
