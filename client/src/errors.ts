import type { components } from "./api";

type Schemas = components["schemas"];
export type ApiErrorCode = Schemas["Error"]["code"];
export type FieldError = Schemas["FieldError"];
export type JobError = Schemas["JobError"];
export type JobErrorCategory = JobError["category"];

/**
 * An error the service answered, carrying its envelope: branch on `code`
 * (never on `message`, which is Korean text for people) and quote
 * `requestId` to support. A failed job raised as an error (JobFailedError)
 * also carries the failure's `category`.
 */
export class CollectApiError extends Error {
  override readonly name: string = "CollectApiError";
  readonly code: string;
  /** The HTTP status; 0 when no response arrived (the network failed on every attempt). */
  readonly status: number;
  readonly requestId: string | undefined;
  readonly fieldErrors: FieldError[] | undefined;
  readonly category: JobErrorCategory | undefined;
  /** From Retry-After on a 429 or 503. */
  readonly retryAfterSeconds: number | undefined;

  constructor(init: {
    code: string;
    message: string;
    status: number;
    requestId?: string;
    fieldErrors?: FieldError[];
    category?: JobErrorCategory;
    retryAfterSeconds?: number;
    cause?: unknown;
  }) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.code = init.code;
    this.status = init.status;
    this.requestId = init.requestId;
    this.fieldErrors = init.fieldErrors;
    this.category = init.category;
    this.retryAfterSeconds = init.retryAfterSeconds;
  }
}

/** A job that ended Failed, for callers that asked for an exception rather than the Failed job. */
export class JobFailedError extends CollectApiError {
  override readonly name: string = "JobFailedError";
  readonly job: Schemas["FailedDataJob"];
  readonly retryable: boolean;

  constructor(job: Schemas["FailedDataJob"]) {
    super({
      code: job.error.code,
      message: job.error.message,
      status: 200,
      category: job.error.category,
      retryAfterSeconds: job.error.retryAfterSeconds ?? undefined,
    });
    this.job = job;
    this.retryable = job.error.retryable;
  }
}

/** The job was still running when the wait budget (its maxWaitSeconds, or the caller's) ran out. */
export class JobWaitTimeoutError extends Error {
  override readonly name = "JobWaitTimeoutError";
  readonly job: Schemas["InProgressDataJob"];

  constructor(job: Schemas["InProgressDataJob"], waitedSeconds: number) {
    super(`job ${job.id} still ${job.phase} after ${waitedSeconds} s (${job.completedTaskCount}/${job.totalTaskCount} units)`);
    this.job = job;
  }
}

function retryAfterOf(response: Response): number | undefined {
  const header = response.headers.get("Retry-After");
  if (header === null) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds);
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - Date.now()) / 1000));
}

/** The error for a response that is not 2xx; a body that is not our envelope (a proxy's page) still gives a usable error. */
export function errorFromResponse(response: Response, body: unknown): CollectApiError {
  const envelope = (typeof body === "object" && body !== null ? body : {}) as Partial<Schemas["Error"]>;
  return new CollectApiError({
    code: typeof envelope.code === "string" ? envelope.code : `HTTP_${response.status}`,
    message: typeof envelope.message === "string" ? envelope.message : `${response.status} ${response.statusText}`.trim(),
    status: response.status,
    requestId: envelope.requestId ?? response.headers.get("X-Request-Id") ?? undefined,
    fieldErrors: envelope.fieldErrors,
    retryAfterSeconds: retryAfterOf(response),
  });
}

export function networkError(cause: unknown): CollectApiError {
  return new CollectApiError({ code: "NETWORK_ERROR", message: `could not reach the service: ${String((cause as Error)?.message ?? cause)}`, status: 0, cause });
}
