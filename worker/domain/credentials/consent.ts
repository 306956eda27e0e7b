import { allProviders } from "../catalog/providers";
import { ApiError, fieldError } from "../../platform/errors/api-error";
import type { ApiErrorCode } from "../../platform/errors/codes";
import { GLOBAL_PROVIDER } from "./identity";

/** Most schemas one consent may name: every schema of the catalog fits with room to spare. */
export const MAX_CONSENTED_SCHEMAS = 32;

/** The schemas a credential of this scope can serve: its provider's, or for a global certificate those of every provider taking certificates. */
function servedSchemas(providerCode: string): Set<string> {
  const providers = allProviders().filter((p) => (providerCode === GLOBAL_PROVIDER ? p.acceptedAuthMethods.includes("CERTIFICATE") : p.code === providerCode));
  return new Set(providers.flatMap((p) => p.schemas));
}

/**
 * The schemas a registration says its holder consented to, checked against what the credential can serve
 * (400 `code` on the one it cannot), without repeats and in order; null when none were named,
 * which consents to every schema the credential serves.
 */
export function consentedSchemas(providerCode: string, schemas: readonly string[] | undefined, field: string, code: ApiErrorCode = "INVALID_PARAM_FORMAT"): string[] | null {
  if (schemas === undefined) return null;
  const served = servedSchemas(providerCode);
  const unknown = schemas.findIndex((s) => !served.has(s));
  if (unknown >= 0) {
    const message = `이 자격 증명으로 수집할 수 없는 스키마입니다: ${schemas[unknown]} (GET /api/v1/providers/{code}의 schemas 중에서 고르세요)`;
    throw new ApiError(code, { message, fieldErrors: [fieldError(`${field}.${unknown}`, code, message)] });
  }
  return [...new Set(schemas)].sort();
}

/** A job collects only what the credential's holder consented to: else 422 CREDENTIAL_SCOPE_NOT_SUPPORTED, naming what was. */
export function assertConsentCovers(consented: readonly string[] | null, schema: string): void {
  if (consented === null || consented.includes(schema)) return;
  throw new ApiError("CREDENTIAL_SCOPE_NOT_SUPPORTED", {
    message: `이 자격 증명은 ${consented.join(", ")}만 수집하도록 동의받았습니다. ${schema}를 수집하려면 그 스키마에 동의받아 다시 등록해 주세요.`,
    fieldErrors: [fieldError("body.schema", "CREDENTIAL_SCOPE_NOT_SUPPORTED", `동의받은 스키마: ${consented.join(", ")}`)],
  });
}
