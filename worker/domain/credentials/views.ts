import type { CredentialRow } from "./store";
import type { CertificateFace } from "../certificates/verify";
import type { ConsentFace } from "./consent-face";
import { isoTime, isoTimeOrNull } from "../../platform/lib/iso-time";
import { GLOBAL_PROVIDER } from "./identity";
import { consentRecordView } from "./consent-record";
import { type JobError, jobError } from "../../../contracts/job-failures";

/** How long before notAfter a certificate is flagged, so a partner can ask the business to renew before jobs fail. */
export const RENEWAL_WINDOW_MS = 30 * 86_400_000;

function certificateView(face: CertificateFace) {
  return {
    subject: face.subject,
    issuer: face.issuer,
    serialNumber: face.serialNumber,
    notAfter: face.notAfter,
    expiresSoon: Date.parse(face.notAfter) - Date.now() < RENEWAL_WINDOW_MS,
  };
}

/** An Open Banking consent's face as the API shows it: never a token. */
function consentView(face: ConsentFace) {
  return {
    accounts: face.accounts.map((a) => ({ accountNumber: a.fintechUseNum, accountNumberFormatted: a.accountNumMasked, bankCode: a.bankCodeStd, bankName: a.bankName, displayName: a.accountAlias })),
    givenAt: face.givenAt,
    expiresAt: face.expiresAt,
    tokenExpiresAt: face.tokenExpiresAt,
    refreshedAt: face.refreshedAt,
  };
}

/** A credential's login check as the API shows it, on the credential and on the registration session that made it. */
export function checkView(row: Pick<CredentialRow, "checkState" | "checkError" | "checkedAt">) {
  return row.checkState ? { state: row.checkState, error: row.checkError, checkedAt: isoTimeOrNull(row.checkedAt) } : null;
}

/**
 * Why the institution refuses a live credential, if it does: the job failure that showed it (jobs now fail with it
 * without logging in), else its last login check's refusal. Null while it is believed good or not yet checked.
 */
export function refusalOf(row: Pick<CredentialRow, "invalidReason" | "checkState" | "checkError">): JobError | null {
  if (row.invalidReason) return jobError(row.invalidReason);
  return row.checkState === "INVALID" ? row.checkError : null;
}

/** What the API shows of a credential: never the sealed secret. */
export function credentialView(row: CredentialRow) {
  return {
    id: row.id,
    providerCode: row.providerCode === GLOBAL_PROVIDER ? null : row.providerCode,
    authMethod: row.authMethod,
    isDefault: row.isDefault,
    businessNumber: row.businessNumber,
    status: row.status,
    label: row.label,
    certificate: row.certificate ? certificateView(row.certificate) : null,
    consent: row.consent ? consentView(row.consent) : null,
    schemas: row.schemas,
    consentRecord: row.consentRecord ? consentRecordView(row.consentRecord, row.providerCode, row.schemas) : null,
    check: checkView(row),
    refusal: row.invalidReason && row.invalidatedAt !== null ? { code: row.invalidReason, at: isoTime(row.invalidatedAt) } : null,
    createdAt: isoTime(row.createdAt),
    deletedAt: isoTimeOrNull(row.deletedAt),
    revokedReason: row.revokedReason,
  };
}
