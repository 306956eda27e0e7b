import type { Context } from "hono";
import type { z } from "zod";
import type { AppEnv } from "./app-env";
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

const TYPE_NAMES: Record<string, string> = { string: "문자열", number: "숫자", int: "정수", boolean: "true 또는 false", object: "객체", array: "배열" };

const FORMAT_HINTS: Record<string, string> = {
  date: "YYYY-MM-DD 형식의 실제 날짜여야 합니다 (예: 2026-01-31).",
  datetime: "시간대를 포함한 ISO 8601 시각이어야 합니다 (예: 2026-01-31T09:00:00Z).",
  uuid: "UUID 형식이어야 합니다.",
};

/** A bound in the unit of what was measured: characters of a string, items of an array, or the number itself. */
function bound(origin: string, value: number | bigint, side: "min" | "max"): string {
  const unit = origin === "string" ? "자" : origin === "array" ? "개" : "";
  return side === "min" ? `${value}${unit} 이상이어야 합니다.` : `${value}${unit} 이하여야 합니다.`;
}

/** The catalog's message is the code's general one; the field's message says what this field expected. */
function messageFor(code: ApiErrorCode, issue: z.core.$ZodIssue): string {
  if (code === "MISSING_REQUIRED_PARAM") return "필수 값이 없습니다.";
  switch (issue.code) {
    case "invalid_type":
      return `${TYPE_NAMES[issue.expected] ?? issue.expected} 값이어야 합니다.`;
    case "too_small":
      return bound(issue.origin, issue.minimum, "min");
    case "too_big":
      return bound(issue.origin, issue.maximum, "max");
    case "unrecognized_keys":
      return `알 수 없는 필드입니다: ${issue.keys.join(", ")}`;
    case "invalid_value":
      return `허용되지 않는 값입니다. 가능한 값: ${issue.values.map(String).join(", ")}`;
    case "invalid_format":
      return FORMAT_HINTS[issue.format] ?? "허용된 형식과 맞지 않습니다. API 문서의 필드 설명을 확인해 주세요.";
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
export function validationError(fieldErrors: FieldError[], oauthError?: string): ApiError {
  return new ApiError(fieldErrors[0]!.code, { fieldErrors, oauthError });
}

/** defaultHook of the app: every request validation failure becomes the error envelope. */
export const validationHook = <E extends AppEnv>(result: { success: boolean }, c: Context<E>): void => {
  if (result.success) return;
  const { error, target, data } = result as unknown as { error: z.ZodError; target: string; data: unknown };
  // The OAuth endpoints (RFC 8628) also say it as RFC 6749's invalid_request, for standard clients.
  throw validationError(toFieldErrors(error, data, PREFIX[target] ?? target), c.req.path.startsWith("/oauth/") ? "invalid_request" : undefined);
};
