import type { Context, Env } from "hono";
import { validator } from "hono/validator";
import type { z } from "zod";
import { ApiError } from "../platform/errors/api-error";

/** A page route's path parameters by name, each the string the router matched. */
export type PathParams<K extends string> = { [P in K]: string };

/** A page handler's context on a route with path parameters `K`, read with `c.req.valid("param")`. */
export type WithPath<E extends Env, K extends string> = Context<E, string, { out: { param: PathParams<K> } }>;

/**
 * A page route's path parameters, declared with their schema where the route is registered (console/routes.ts,
 * admin/pages/routes.ts) and read with `c.req.valid("param")`, as the API reads its own. The schemas take each id
 * as loosely as the lookups do, so an id no row has is still the page's own not-found; a value a schema refuses
 * is answered as a path no page has, 404 RESOURCE_NOT_FOUND.
 */
export const pathParams = <S extends z.ZodType<Record<string, string>>>(schema: S) =>
  validator("param", (value): z.output<S> => {
    const parsed = schema.safeParse(value);
    if (!parsed.success) throw new ApiError("RESOURCE_NOT_FOUND");
    return parsed.data;
  });
