import type { ZodType } from "zod";

/**
 * An OAuth endpoint's body: form-encoded as RFC 6749 and RFC 8628 send it (standard client libraries), or JSON (our
 * CLI and typed client). Whichever arrives is validated against the same schema; the other reads as `{}`, so a
 * handler takes `{ ...c.req.valid("form"), ...c.req.valid("json") }`.
 */
export function oauthBody<T extends ZodType>(schema: T) {
  return { body: { content: { "application/x-www-form-urlencoded": { schema }, "application/json": { schema } } } } as const;
}
