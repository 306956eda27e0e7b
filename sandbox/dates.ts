const DAY_MS = 86_400_000;
/** Korea's offset from UTC (no daylight saving). */
export const KST_MS = 9 * 3_600_000;

export const toDay = (iso: string) => Math.floor(Date.parse(`${iso}T00:00:00Z`) / DAY_MS);
export const fromDay = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);

/** Today in Korea: the bank's ledger runs up to this day. */
export function todayKst(now = Date.now()): string {
  return new Date(now + KST_MS).toISOString().slice(0, 10);
}
