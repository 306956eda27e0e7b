import { effectiveStatus, MAX_ATTEMPTS, type SessionRow } from "../../registration/status";
import { isoTime } from "../../lib/iso-time";

export function sessionView(row: SessionRow) {
  return {
    sessionId: row.id,
    status: effectiveStatus(row),
    expiresAt: isoTime(row.expiresAt),
    clientReferenceId: row.clientReferenceId,
    registrationOptions: row.options,
    originAllowlist: row.originAllowlist,
    attempts: row.attempts,
    maxAttempts: MAX_ATTEMPTS,
    credentialId: row.credentialId,
  };
}
