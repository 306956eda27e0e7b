import type { ConnectionRow } from "../../domain/partners/connections";
import { isoTime, isoTimeOrNull } from "../../platform/lib/iso-time";

export function connectionView(row: ConnectionRow) {
  return {
    id: row.id,
    businessNumber: row.businessNumber,
    status: row.status,
    createdAt: isoTime(row.createdAt),
    revokedAt: isoTimeOrNull(row.revokedAt),
  };
}
