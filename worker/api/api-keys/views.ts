import { isoTime, isoTimeOrNull } from "../../platform/lib/iso-time";

export function apiKeyView(row: { id: string; name: string; prefix: string; createdAt: number; expiresAt: number | null; revokedAt: number | null; canManageKeys: boolean; deviceIssued: boolean }) {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    createdAt: isoTime(row.createdAt),
    expiresAt: isoTimeOrNull(row.expiresAt),
    revokedAt: isoTimeOrNull(row.revokedAt),
    canManageKeys: row.canManageKeys,
    deviceIssued: row.deviceIssued,
  };
}
