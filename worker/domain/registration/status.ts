import type { RegistrationSessionStatus, registrationSessions } from "./tables";

export type SessionRow = typeof registrationSessions.$inferSelect;

/** Failed submissions a session takes; the last one locks it. */
export const MAX_ATTEMPTS = 5;

/** The status as of now: a PENDING session past its expiry is EXPIRED even before anyone writes that down. */
export function effectiveStatus(row: SessionRow, now = Date.now()): RegistrationSessionStatus {
  return row.status === "PENDING" && row.expiresAt <= now ? "EXPIRED" : row.status;
}
