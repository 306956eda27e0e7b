import type { LoginCredential } from "../../../contracts/task-unit";
import type { CertificateFace } from "../certificates/verify";
import { ApiError, fieldError } from "../../platform/errors/api-error";
import { keyVersionState } from "../vault/keyring";
import { sealCredential } from "../vault/envelope";
import { credentialIdentity, GLOBAL_PROVIDER } from "./identity";
import type { CredentialRow, WriteCondition } from "./store";
import { consentEnding } from "./consents";
import { RENEWAL_WINDOW_MS } from "./views";
import type { ConsentRecord } from "./consent-record";

/**
 * Whether a live credential's secret is lost for good, so that only its owner can give it back: erased when the
 * institution refused it, or sealed under a master key version the keyring no longer holds.
 */
function secretLost(row: CredentialRow, keyring: string): boolean {
  if (row.sealed === null) return true;
  // A consent that ends (or ended) within the warning window: only the person can give it again.
  if (consentEnding(row.consent, Date.now(), RENEWAL_WINDOW_MS)) return true;
  // So does the holder's consent to the workspace: a recovery is how it is given again.
  if (row.consentRecord && Date.parse(row.consentRecord.expiresAt) - Date.now() <= RENEWAL_WINDOW_MS) return true;
  const version = (JSON.parse(row.sealed) as { kv?: number }).kv;
  return version !== undefined && keyVersionState(keyring, version) === "missing";
}

/**
 * A credential a recovery session may restore: one whose secret is lost. A credential whose secret is fine has
 * nothing to recover (409 CREDENTIAL_RECOVERY_NOT_ALLOWED): register it again to change it.
 */
export function assertRecoverable(row: CredentialRow, keyring: string): void {
  if (secretLost(row, keyring)) return;
  throw new ApiError("CREDENTIAL_RECOVERY_NOT_ALLOWED", {
    message: "이 자격 증명의 비밀 값은 잃지 않았습니다. 비밀번호나 인증서를 바꾸려면 같은 계정이나 인증서로 다시 등록해 주세요.",
    fieldErrors: [fieldError("body.recoverCredentialId", "CREDENTIAL_RECOVERY_NOT_ALLOWED")],
  });
}

/** The one registration option a recovery session offers (a RegistrationOption, registration/sessions.ts, above credentials): the credential's own method and provider. */
export function recoveryOption(row: CredentialRow): { kind: "CERTIFICATE" } | { kind: "PROVIDER_LOGIN"; providerCode: string } {
  return row.authMethod === "CERTIFICATE" ? { kind: "CERTIFICATE" } : { kind: "PROVIDER_LOGIN", providerCode: row.providerCode };
}

/**
 * The re-entered secret must be the same login or the same certificate as the credential it restores, or it would
 * become another credential under the old one's id: 400 CREDENTIAL_RECOVERY_VALIDATION_FAILED otherwise.
 */
export async function assertSameIdentity(row: CredentialRow, credential: LoginCredential, certificate: CertificateFace | null): Promise<void> {
  if ((await credentialIdentity(row.providerCode, credential, certificate)) === row.identity) return;
  throw new ApiError("CREDENTIAL_RECOVERY_VALIDATION_FAILED", {
    message: "입력한 아이디나 인증서가 되살리려는 자격 증명의 것과 다릅니다. 원래의 아이디나 같은 인증서로 입력해 주세요.",
  });
}

/**
 * Puts the re-entered secret back under the credential's own id, clearing a refusal, while `onlyIf` holds: the
 * credential keeps its id, label, default role and jobs. Its check starts again when `checkId` is given. The holder
 * consented anew by entering it, so `record` replaces the consent record and the warnings of its end start over.
 */
export async function restoreStatement(d1: D1Database, keyring: string, row: CredentialRow, credential: LoginCredential, checkId: string | null, record: ConsentRecord, onlyIf: WriteCondition): Promise<D1PreparedStatement> {
  const sealed = await sealCredential(keyring, { credentialId: row.id, workspaceId: row.workspaceId, providerCode: row.providerCode }, credential);
  // Raw: the caller hands its write condition over as SQL text (`onlyIf`), which drizzle's builder cannot take.
  return d1
    .prepare(
      `UPDATE credentials SET sealed = ?, invalid_reason = NULL, invalidated_at = NULL, check_state = ?, check_id = ?, check_error = NULL, checked_at = NULL,
         consent_record = ?, expiry_warned_days = NULL
       WHERE id = ? AND status = 'ACTIVE' AND ${onlyIf.condition}`,
    )
    .bind(sealed, checkId ? "CHECKING" : null, checkId, JSON.stringify(record), row.id, ...onlyIf.binds);
}

/** A global certificate is recovered without a provider; any other credential at its own. */
export const recoveryProviderCode = (row: CredentialRow): string | undefined => (row.providerCode === GLOBAL_PROVIDER ? undefined : row.providerCode);
