import { type ApiErrorCode, catalogEntry } from "./codes";
import type { FailureReport } from "./failure-report";

/** One entry of `fieldErrors`: where, which rule, and a Korean explanation. */
export interface FieldError {
  /** JSON-pointer-like dotted path into the request, e.g. `body.params.dateRangeStart`, `query.limit`, `header.Idempotency-Key`. */
  field: string;
  /** The catalog code this field alone would have produced. */
  code: ApiErrorCode;
  message: string;
}

export interface ErrorEnvelope {
  code: ApiErrorCode;
  message: string;
  requestId: string;
  fieldErrors?: FieldError[];
  /** RFC 6749 section 5.2's error code, on the OAuth endpoints (the device grant) only, for standard clients. */
  error?: string;
  error_description?: string;
}

interface ApiErrorOptions {
  /** A more specific Korean message than the catalog's. */
  message?: string;
  fieldErrors?: FieldError[];
  headers?: Record<string, string>;
  /** The OAuth error code this answer is, on the OAuth endpoints (RFC 6749 section 5.2, RFC 8628 section 3.5). */
  oauthError?: string;
  /** A failure for operators to fix, not the caller: filed as a failure report once the answer has gone (web/error-handler.ts). */
  report?: FailureReport;
  /**
   * A flagged code answered to a request anybody could send and that names nothing of ours: answered alike, but not
   * counted toward the code's alert, so noise can neither raise nor hold it (domain/billing/gateway-webhooks.ts).
   */
  noise?: boolean;
}

/** The envelope's bounds, as the document states them (platform/http/error-responses.ts): at most this many fieldErrors ... */
export const MAX_FIELD_ERRORS = 100;
/** ... and messages and field paths of at most this many characters (a path or message naming a request's keys is cut). */
export const MAX_ERROR_TEXT = 1000;

const clip = (text: string) => (text.length > MAX_ERROR_TEXT ? `${text.slice(0, MAX_ERROR_TEXT - 1)}…` : text);

/** Thrown anywhere in a request; the error middleware turns it into the envelope. */
export class ApiError extends Error {
  readonly status: number;
  readonly fieldErrors?: FieldError[];
  readonly headers?: Record<string, string>;
  readonly oauthError?: string;
  readonly report?: FailureReport;
  readonly noise: boolean;

  constructor(
    readonly code: ApiErrorCode,
    options: ApiErrorOptions = {},
  ) {
    const entry = catalogEntry(code);
    super(options.message ?? entry.message);
    this.name = "ApiError";
    this.status = entry.status;
    this.fieldErrors = options.fieldErrors;
    this.headers = options.headers;
    this.oauthError = options.oauthError;
    this.report = options.report;
    this.noise = options.noise ?? false;
  }

  envelope(requestId: string): ErrorEnvelope {
    const body: ErrorEnvelope = { code: this.code, message: clip(this.message), requestId };
    if (this.fieldErrors) body.fieldErrors = this.fieldErrors.slice(0, MAX_FIELD_ERRORS).map((f) => ({ ...f, field: clip(f.field), message: clip(f.message) }));
    if (this.oauthError) Object.assign(body, { error: this.oauthError, error_description: this.message });
    return body;
  }
}

export function fieldError(field: string, code: ApiErrorCode, message?: string): FieldError {
  return { field, code, message: message ?? catalogEntry(code).message };
}
