import type { ZodType } from "zod";

/** A required JSON request body for createRoute: other content types answer 415, a missing body the envelope. */
export function jsonBody<T extends ZodType>(schema: T) {
  return { body: { required: true, content: { "application/json": { schema } } } } as const;
}
