import type { CredentialRow } from "../../credentials/store";
import { isoTime, isoTimeOrNull } from "../../lib/iso-time";

/** What the API shows of a credential: never the sealed secret. */
export function credentialView(row: CredentialRow) {
  return {
    id: row.id,
    providerCode: row.providerCode,
    authMethod: row.authMethod,
    status: row.status,
    label: row.label,
    createdAt: isoTime(row.createdAt),
    deletedAt: isoTimeOrNull(row.deletedAt),
  };
}
