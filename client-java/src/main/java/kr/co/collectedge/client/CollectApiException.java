package kr.co.collectedge.client;

import java.util.List;

/**
 * An answer that is not 2xx (after the client's retries), or no answer at all ({@code NETWORK_ERROR}, status 0).
 * Unchecked: most callers let it reach their error handler; those that can act branch on {@link #code()}.
 */
public class CollectApiException extends RuntimeException {
  private final String code;
  private final int status;
  private final String requestId;
  private final List<Schemas.FieldError> fieldErrors;
  private final Long retryAfterSeconds;

  public CollectApiException(String code, String message, int status, String requestId, List<Schemas.FieldError> fieldErrors, Long retryAfterSeconds, Throwable cause) {
    super(message, cause);
    this.code = code;
    this.status = status;
    this.requestId = requestId;
    this.fieldErrors = fieldErrors == null ? List.of() : List.copyOf(fieldErrors);
    this.retryAfterSeconds = retryAfterSeconds;
  }

  /** The spec's code (DATA_JOB_NOT_FOUND, IDEMPOTENCY_KEY_CONFLICT, ...); NETWORK_ERROR when no answer came. */
  public String code() { return code; }

  /** The HTTP status, 0 when no answer came. */
  public int status() { return status; }

  /** Quote it to support; null when no answer came. */
  public String requestId() { return requestId; }

  /** Which request fields failed validation, empty otherwise. */
  public List<Schemas.FieldError> fieldErrors() { return fieldErrors; }

  /** From Retry-After, null when the answer named none. */
  public Long retryAfterSeconds() { return retryAfterSeconds; }

  @Override
  public String toString() {
    return "CollectApiException[" + code + ", status " + status + ", requestId " + requestId + "]: " + getMessage();
  }
}
