import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { AppEnv } from "../platform/http/app-env";
import { ApiError } from "../platform/errors/api-error";
import { ALERTED_CODES } from "../platform/errors/codes";
import { noteFlagged } from "../domain/alerts/raise";
import { NO_PROVIDER } from "../domain/alerts/rules";
import { afterAnswer } from "../platform/http/after-answer";
import { fileReport } from "../domain/reports/store";
import { log } from "../platform/observability/telemetry";
import { withoutQueryParams } from "../platform/database/client";

/** Framework exceptions (body parsing, content type, size) mapped onto catalog codes. */
function fromHttpException(err: HTTPException): ApiError {
  switch (err.status) {
    case 413:
      return new ApiError("MALFORMED_REQUEST", { message: "요청 본문이 허용 크기를 넘었습니다. 본문을 줄여 다시 보내 주세요." });
    case 415:
      return new ApiError("UNSUPPORTED_MEDIA_TYPE");
    case 405:
      return new ApiError("METHOD_NOT_ALLOWED");
    case 404:
      return new ApiError("RESOURCE_NOT_FOUND");
    default:
      return err.status < 500
        ? new ApiError("MALFORMED_REQUEST", { message: "요청 본문을 해석할 수 없습니다. 올바른 JSON인지 확인해 주세요." })
        : new ApiError("INTERNAL_ERROR");
  }
}

export function errorResponse<E extends AppEnv>(c: Context<E>, error: ApiError): Response {
  // Noise (ApiError's `noise`) is answered with its code but neither logged as flagged nor counted toward the alert.
  const flagged = ALERTED_CODES.has(error.code) && !error.noise;
  if (flagged) log("error", "flagged-code", { code: error.code });
  // A report counts toward its code's alert itself.
  if (error.report) afterAnswer(c, fileReport(c.env, NO_PROVIDER, { requestId: c.get("requestId") }, error.report).catch((err) => log("error", "failure-report-not-filed", { code: error.code, error: String(err) })));
  else if (flagged) afterAnswer(c, noteFlagged(c.env, error.code, NO_PROVIDER, c.get("requestId")));
  return c.json(error.envelope(c.get("requestId")), error.status as 400, error.headers);
}

export const onError = <E extends AppEnv>(err: Error, c: Context<E>): Response => {
  if (err instanceof ApiError) return errorResponse(c, err);
  if (err instanceof HTTPException) return errorResponse(c, fromHttpException(err));
  log("error", "unhandled-error", { error: withoutQueryParams(String(err)), stack: withoutQueryParams(err.stack) });
  return errorResponse(c, new ApiError("INTERNAL_ERROR"));
};

export const onNotFound = <E extends AppEnv>(c: Context<E>): Response => errorResponse(c, new ApiError("RESOURCE_NOT_FOUND"));
