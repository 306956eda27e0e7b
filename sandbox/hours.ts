import type { SandboxClock } from "./clock";
import { KST_MS } from "./dates";

const minutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/**
 * A window a site closes every day, in Korean time ("HH:MM"; a `to` before `from` runs past midnight); with
 * `on: "monthEnd"`, only from the last day of a month into the 1st.
 */
export interface DailyHours {
  from: string;
  to: string;
  on?: "monthEnd";
}

const DAY_MS = 86_400_000;
const isLastDayOfMonth = (kstMs: number) => new Date(kstMs + DAY_MS).getUTCDate() === 1;

/** Whether the site is closed by the sandbox's clock; without a clock the sandbox keeps no hours. */
export function closedNow(clock: SandboxClock | undefined, hours: DailyHours): boolean {
  const at = clock?.();
  if (at === undefined) return false;
  const kst = new Date(at + KST_MS);
  const now = kst.getUTCHours() * 60 + kst.getUTCMinutes();
  const from = minutes(hours.from);
  const to = minutes(hours.to);
  // Which day the window opened on: today, or yesterday for the part past midnight.
  const openedOn = from <= to || now >= from ? at + KST_MS : at + KST_MS - DAY_MS;
  if (hours.on === "monthEnd" && !isLastDayOfMonth(openedOn)) return false;
  return from <= to ? now >= from && now < to : now >= from || now < to;
}
