import type { ZodType } from "zod";
import type { ApiErrorCode } from "../errors/codes";

/** A required JSON request body for createRoute: other content types answer 415, a missing body the envelope. */
export function jsonBody<T extends ZodType>(schema: T) {
  return { body: { required: true, content: { "application/json": { schema } } } } as const;
}

/** What a JSON body answers before the handler sees it: another content type, then unparsable JSON (or over 256 KB). */
export const JSON_BODY_ERRORS = ["UNSUPPORTED_MEDIA_TYPE", "MALFORMED_REQUEST"] as const satisfies readonly ApiErrorCode[];
