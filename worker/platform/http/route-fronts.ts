import { type RouteConfig, z } from "@hono/zod-openapi";
import type { Env, MiddlewareHandler } from "hono";
import type { ZodType } from "zod";
import type { AppEnv } from "./app-env";
import type { ApiErrorCode } from "../errors/codes";
import { withErrorCodes } from "./error-responses";
import { JSON_BODY_ERRORS } from "./json-body";
import { withRateHeaders } from "./rate-headers";

/**
 * Something that runs in front of route handlers and may answer instead of
 * them: the document of every route it fronts shows the request headers it
 * reads and the codes it answers.
 */
export interface RouteFront<E extends Env = AppEnv> {
  /** Runs as the fronted route's own middleware, typed with its surface's context; absent when the app mounts it on a path prefix. */
  middleware?: MiddlewareHandler<E>;
  headers?: Record<string, ZodType>;
  errors: readonly ApiErrorCode[];
  /** OpenAPI extensions (`x-…`) the fronted operation's document gains: what the front does that no header or code says. */
  extensions?: Record<`x-${string}`, unknown>;
}

const JSON_BODY: RouteFront<any> = { errors: JSON_BODY_ERRORS };
/** Every input is bounded (bounds.ts): a value past its bound is 400 INVALID_PARAM_FORMAT from the validation hook. */
const BOUNDED_INPUT: RouteFront = { errors: ["INVALID_PARAM_FORMAT"] };

function withHeaders(current: NonNullable<RouteConfig["request"]>["headers"], added: Record<string, ZodType>) {
  if (current === undefined) return z.object(added);
  if (current instanceof z.ZodObject) return current.extend(added);
  throw new Error("Route headers must be one z.object for fronts to add theirs");
}

/**
 * The route as the app serves it behind `fronts` (in the order they run):
 * their middleware runs before the route's validators and handler, and its
 * document gains their headers and codes, and a JSON body's codes when it
 * takes one; every response declares the rate headers (rate-headers.ts).
 * Registering through this is what keeps a route's document true to what
 * runs in front of it.
 */
export function behind<R extends RouteConfig>(route: R, ...fronts: RouteFront<any>[]): R {
  const all = route.request?.body?.content["application/json"] ? [...fronts, JSON_BODY] : fronts;
  const middleware = all.flatMap((front) => (front.middleware ? [front.middleware] : []));
  const headers: Record<string, ZodType> = Object.assign({}, ...all.map((front) => front.headers));
  const request = route.request;
  const takesInput = Boolean(request?.params || request?.query || request?.body || request?.headers || Object.keys(headers).length);
  const errors = [...all, ...(takesInput ? [BOUNDED_INPUT] : [])].flatMap((front) => front.errors);
  return {
    ...route,
    ...Object.assign({}, ...all.map((front) => front.extensions)),
    ...(middleware.length ? { middleware: [...middleware, ...[route.middleware ?? []].flat()] } : {}),
    ...(Object.keys(headers).length ? { request: { ...route.request, headers: withHeaders(route.request?.headers, headers) } } : {}),
    responses: withRateHeaders(withErrorCodes(route.responses, errors)),
  };
}
