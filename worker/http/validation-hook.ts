import type { Hook } from "@hono/zod-openapi";
import type { z } from "zod";
import type { AppEnv } from "../env";
import { ApiError, type FieldError, fieldError } from "../errors/api-error";
import type { ApiErrorCode } from "../errors/codes";

const PREFIX: Record<string, string> = { json: "body", query: "query", param: "path", header: "header", form: "body", cookie: "cookie" };

function valueAt(data: unknown, path: PropertyKey[]): unknown {
  let current = data;
  for (const key of path) {
    if (current === null || typeof current !== "object") return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

function codeFor(issue: z.core.$ZodIssue, data: unknown): ApiErrorCode {
  if (issue.code === "invalid_type" && valueAt(data, issue.path) === undefined) return "MISSING_REQUIRED_PARAM";
  // Only job params are strict objects: a key the schema does not define is a params error, not a format one.
  if (issue.code === "unrecognized_keys") return "INVALID_DATA_JOB_PARAMS";
  return "INVALID_PARAM_FORMAT";
}

function messageFor(code: ApiErrorCode, issue: z.core.$ZodIssue): string {
  if (code === "MISSING_REQUIRED_PARAM") return "필수 값이 없습니다.";
  switch (issue.code) {
    case "invalid_type":
      return `형식이 올바르지 않습니다. ${issue.expected} 값이어야 합니다.`;
    case "too_small":
      return `값이 너무 작거나 짧습니다. 최소 ${String(issue.minimum)}입니다.`;
    case "too_big":
      return `값이 너무 크거나 깁니다. 최대 ${String(issue.maximum)}입니다.`;
    case "unrecognized_keys":
      return `알 수 없는 필드입니다: ${issue.keys.join(", ")}`;
    case "invalid_value":
      return `허용되지 않는 값입니다. 가능한 값: ${issue.values.map(String).join(", ")}`;
    case "invalid_format":
      return `형식이 올바르지 않습니다 (${issue.format}).`;
    default:
      return "값이 올바르지 않습니다.";
  }
}

/** Turns zod issues into the envelope's fieldErrors, each path prefixed with where it came from. */
export function toFieldErrors(error: z.ZodError, data: unknown, origin: string): FieldError[] {
  return error.issues.map((issue) => {
    const code = codeFor(issue, data);
    const path = [origin, ...issue.path.map(String)].join(".");
    return fieldError(path, code, messageFor(code, issue));
  });
}

/** The envelope's code is the first field's code, so a client can branch without reading the list. */
export function validationError(fieldErrors: FieldError[]): ApiError {
  return new ApiError(fieldErrors[0]!.code, { fieldErrors });
}

/** defaultHook of the app: every request validation failure becomes the error envelope. */
export const validationHook: Hook<unknown, AppEnv, string, unknown> = (result) => {
  if (result.success) return;
  const { error, target, data } = result as unknown as { error: z.ZodError; target: string; data: unknown };
  throw validationError(toFieldErrors(error, data, PREFIX[target] ?? target));
};
