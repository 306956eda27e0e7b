import type { ApiErrorCode } from "../../platform/errors/codes";

/** The codes certificate checks answer, for route definitions: the 422s of the files, and 503 when the runtime's crypto fails. */
export const CERTIFICATE_ERRORS = [
  "CERT_INVALID",
  "CERT_ENCRYPTION_UNSUPPORTED",
  "CERT_WRONG_PASSWORD",
  "CERT_KEY_PAIR_MISMATCH",
  "CERT_EXPIRED",
  "CERT_KEY_USAGE_INVALID",
  "CERT_TYPE_UNSUPPORTED",
  "CERT_R_VALUE_NOT_FOUND",
  "CERT_BIZNO_MISMATCH",
  "CERT_CRYPTO_UNAVAILABLE",
] as const satisfies readonly ApiErrorCode[];
