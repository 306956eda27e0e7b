import { KST_OFFSET_MS } from "../../../contracts/korean-time";

/** Plan months follow the Korean calendar: a month starts at 00:00 KST on the 1st. */
export function kstMonthBounds(now: number): { start: number; end: number } {
  const kst = new Date(now + KST_OFFSET_MS);
  const start = Date.UTC(kst.getUTCFullYear(), kst.getUTCMonth(), 1) - KST_OFFSET_MS;
  const end = Date.UTC(kst.getUTCFullYear(), kst.getUTCMonth() + 1, 1) - KST_OFFSET_MS;
  return { start, end };
}

export function secondsUntilNextMonth(now: number): number {
  return Math.ceil((kstMonthBounds(now).end - now) / 1000);
}
