import { AUTH_METHOD_VALUES, CERTIFICATE_FIELDS, findProvider, type ProviderDefinition, takesConsent } from "../catalog/providers";
import { GLOBAL_PROVIDER } from "./identity";
import { ApiError, type FieldError, fieldError } from "../../platform/errors/api-error";
import type { LoginCredential } from "../../../contracts/task-unit";
import type { CertificateFace } from "../certificates/verify";

/** What a credential's `authMethod` may be: OPEN_BANKING only comes from a consent (registration/open-banking.ts), never typed. */
export const AUTH_METHODS = AUTH_METHOD_VALUES;

export function providerForCredential(code: string, field = "body.providerCode"): ProviderDefinition {
  const provider = findProvider(code);
  if (!provider) throw new ApiError("INVALID_PROVIDER_CODE", { fieldErrors: [fieldError(field, "INVALID_PROVIDER_CODE")] });
  return provider;
}

/** What a credential is registered for: one provider, or every provider that takes certificates. */
export type CredentialScope = Pick<ProviderDefinition, "code" | "acceptedAuthMethods" | "credentialFields" | "sandbox"> & { kind: string };

/**
 * A certificate registered without a provider serves every provider that takes certificates: its fields are the
 * certificate fields they share, and it is held like a real provider's (not in a sandbox-only workspace).
 */
const GLOBAL_CERTIFICATE: CredentialScope = {
  code: GLOBAL_PROVIDER,
  kind: "CERTIFICATE",
  sandbox: false,
  acceptedAuthMethods: ["CERTIFICATE"],
  credentialFields: CERTIFICATE_FIELDS,
};

/** The scope a registration names: its provider, or for a certificate without one, every provider taking certificates. */
export function credentialScope(providerCode: string | undefined, authMethod: string): CredentialScope {
  if (providerCode !== undefined) return providerForCredential(providerCode);
  if (authMethod === "CERTIFICATE") return GLOBAL_CERTIFICATE;
  throw new ApiError("MISSING_PARAMETER", { message: "아이디 로그인(PROVIDER_LOGIN)에는 providerCode가 필요합니다.", fieldErrors: [fieldError("body.providerCode", "MISSING_PARAMETER", "아이디 로그인(PROVIDER_LOGIN)에는 providerCode가 필요합니다.")] });
}

/** The auth methods a person types in; a 간편인증 login only where they approve it at once (`hosted`). */
export type TypedAuthMethod = "PROVIDER_LOGIN" | "CERTIFICATE" | "SIMPLE_AUTH";

/**
 * The auth method must be one we know and one the provider takes. A 간편인증 login is taken only by the hosted
 * registration page (`hosted`): it is stored once its holder approved it on their phone (registration/login-check.ts),
 * which a direct registration's one answer cannot wait for.
 */
export function checkAuthMethod(provider: CredentialScope, authMethod: unknown, field = "body.authMethod", hosted = false): asserts authMethod is TypedAuthMethod {
  if (authMethod === "SIMPLE_AUTH" && !hosted) {
    const message = "간편인증은 본인이 휴대폰에서 승인해야 등록됩니다. 등록 세션(POST /api/v1/registration-sessions, registrationOptions: PROVIDER_LOGIN)을 발급해 등록 화면에서 본인이 승인하게 해 주세요.";
    throw new ApiError("UNSUPPORTED_AUTH_METHOD", { message, fieldErrors: [fieldError(field, "UNSUPPORTED_AUTH_METHOD", message)] });
  }
  if (authMethod === "OPEN_BANKING" || (authMethod === "PROVIDER_LOGIN" && takesConsent(provider))) {
    // A consent is given by the person on the institution's own page, never typed in or passed through a caller.
    const message = "오픈뱅킹은 아이디나 비밀번호가 아니라 본인의 동의로 연결합니다. 등록 세션(registrationOptions: PROVIDER_LOGIN, providerCode openbanking)의 화면에서 동의를 받아 주세요.";
    throw new ApiError("UNSUPPORTED_AUTH_METHOD", { message, fieldErrors: [fieldError(field, "UNSUPPORTED_AUTH_METHOD", message)] });
  }
  if (authMethod !== "PROVIDER_LOGIN" && authMethod !== "CERTIFICATE" && authMethod !== "SIMPLE_AUTH") {
    throw new ApiError("UNSUPPORTED_AUTH_METHOD", { fieldErrors: [fieldError(field, "UNSUPPORTED_AUTH_METHOD")] });
  }
  if (!provider.acceptedAuthMethods.includes(authMethod)) {
    const code = authMethod === "CERTIFICATE" ? "PROVIDER_DOES_NOT_ACCEPT_CERT_LOGIN" : "UNSUPPORTED_AUTH_METHOD";
    throw new ApiError(code, { fieldErrors: [fieldError(field, code)] });
  }
}

/**
 * Checks credential fields against the provider's credential schema (the
 * same patterns `/providers/{code}/credential-schema` publishes). Messages
 * name the field, never its value.
 */
export function credentialFromFields(provider: CredentialScope, authMethod: TypedAuthMethod, fields: unknown, prefix = "body.fields"): LoginCredential {
  const values = fields && typeof fields === "object" && !Array.isArray(fields) ? (fields as Record<string, unknown>) : {};
  const expected = provider.credentialFields.filter((f) => f.authMethod === authMethod);
  const errors: FieldError[] = [];
  for (const key of Object.keys(values)) {
    if (!expected.some((f) => f.name === key)) errors.push(fieldError(`${prefix}.${key}`, "INVALID_CREDENTIAL_FORMAT", `이 인증 방식에 없는 필드입니다: ${key}`));
  }
  for (const field of expected) {
    const value = values[field.name];
    if (value === undefined || value === "") {
      if (field.required) errors.push(fieldError(`${prefix}.${field.name}`, "MISSING_CREDENTIAL_FIELD", `${field.label}을(를) 입력해 주세요.`));
    } else if (typeof value !== "string" || !new RegExp(field.pattern).test(value)) {
      errors.push(fieldError(`${prefix}.${field.name}`, "INVALID_CREDENTIAL_FORMAT", `${field.label} 형식이 올바르지 않습니다.`));
    }
  }
  if (errors.length) throw new ApiError(errors[0]!.code, { fieldErrors: errors });
  // Optional fields left blank are not part of the credential.
  const given = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined && v !== ""));
  return { authMethod, ...given } as LoginCredential;
}

/** A hint for listings that identifies the login without revealing it; a certificate's comes from its checked face. */
export function maskedLabel(credential: LoginCredential, certificate: CertificateFace | null = null): string {
  if (credential.authMethod === "OPEN_BANKING") return "오픈뱅킹 동의";
  // The person's name and app say whose phone is asked; the number's middle is hidden as on a bank's screen.
  if (credential.authMethod === "SIMPLE_AUTH") return `${credential.name} ${credential.phone.slice(0, 3)}-****-${credential.phone.slice(-4)}`;
  if (credential.authMethod === "CERTIFICATE") {
    // Subject name and expiry are on the certificate's face, not secret, and tell certificates apart.
    return certificate ? `인증서 ${certificate.commonName ?? certificate.subject} (~${certificate.notAfter.slice(0, 10)})` : "인증서";
  }
  const id = credential.loginId;
  return id.length <= 4 ? `${id[0]}***` : `${id.slice(0, 2)}${"*".repeat(id.length - 4)}${id.slice(-2)}`;
}
