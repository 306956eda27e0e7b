import type { SandboxClock } from "./clock";
import { KST_MS } from "./dates";

const minutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/** A window a site closes every day, in Korean time ("HH:MM"; a `to` before `from` runs past midnight). */
export interface DailyHours {
  from: string;
  to: string;
}

/** Whether the site is closed by the sandbox's clock; without a clock the sandbox keeps no hours. */
export function closedNow(clock: SandboxClock | undefined, hours: DailyHours): boolean {
  const at = clock?.();
  if (at === undefined) return false;
  const kst = new Date(at + KST_MS);
  const now = kst.getUTCHours() * 60 + kst.getUTCMinutes();
  const from = minutes(hours.from);
  const to = minutes(hours.to);
  return from <= to ? now >= from && now < to : now >= from || now < to;
}
