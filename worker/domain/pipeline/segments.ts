import type { DateSegment } from "../../../contracts/task-unit";

const DAY_MS = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Cuts an inclusive date range into consecutive segments of at most `windowDays` days. */
export function splitRange(start: string, end: string, windowDays: number): DateSegment[] {
  const segments: DateSegment[] = [];
  const last = Date.parse(`${end}T00:00:00Z`);
  for (let from = Date.parse(`${start}T00:00:00Z`); from <= last; from += windowDays * DAY_MS) {
    segments.push({ start: iso(from), end: iso(Math.min(from + (windowDays - 1) * DAY_MS, last)) });
  }
  return segments;
}
