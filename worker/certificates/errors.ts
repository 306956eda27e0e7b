import type { ApiErrorCode } from "../errors/codes";

/** The 422 codes certificate checks answer, for route definitions. */
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
] as const satisfies readonly ApiErrorCode[];
