import type { Context } from "hono";
import type { z } from "zod";
import { ApiError } from "../platform/errors/api-error";
import { toFieldErrors, validationError } from "../platform/http/validation-hook";

/** A form read as the API's request body and checked by the API's own schema, so both refuse alike. */
export function asApiBody<T extends z.ZodType>(schema: T, body: Record<string, unknown>): z.infer<T> {
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw validationError(toFieldErrors(parsed.error, body, "body"));
  return parsed.data;
}

/** What a page shows after one of its forms: what was done, or the refusal with its code. */
export type FormOutcome = { error?: ApiError; done?: string; status?: 200 | 201 };

/**
 * Runs a form's action and shows its page with what was done. A refusal is shown on the page with its code; anything
 * else is the service failing, left to the app's handler.
 */
export async function onPage<C extends Context>(
  c: C,
  page: (c: C, shown: FormOutcome) => Promise<Response>,
  act: () => Promise<string>,
  status?: 201,
): Promise<Response> {
  try {
    return await page(c, { done: await act(), status });
  } catch (err) {
    if (err instanceof ApiError && err.status < 500) return page(c, { error: err });
    throw err;
  }
}
