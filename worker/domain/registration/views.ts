import { effectiveStatus, MAX_ATTEMPTS, type SessionRow } from "./status";
import { isoTime } from "../../platform/lib/iso-time";
import { checkView } from "../credentials/views";
import { credentialCheckOf } from "../credentials/login-checks";

/** A session as the API shows it, with the login check of the credential it registered (null until then). */
export function sessionView(row: SessionRow, credentialCheck: ReturnType<typeof checkView> = null) {
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
    credentialCheck,
  };
}

/** The session as GET and its webhook events show it: with its credential's login check as it stands. */
export async function shownSession(d1: D1Database, row: SessionRow) {
  const credential = row.credentialId ? await credentialCheckOf(d1, row.workspaceId, row.credentialId) : undefined;
  return sessionView(row, credential ? checkView(credential) : null);
}
