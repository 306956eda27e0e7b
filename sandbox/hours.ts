import type { SandboxClock } from "./clock";
import { DAY_MS, isLastKstDayOfMonth, KST_OFFSET_MS } from "../contracts/korean-time";

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

/** Whether the site is closed by the sandbox's clock; without a clock the sandbox keeps no hours. */
export function closedNow(clock: SandboxClock | undefined, hours: DailyHours): boolean {
  const at = clock?.();
  if (at === undefined) return false;
  const kst = new Date(at + KST_OFFSET_MS);
  const now = kst.getUTCHours() * 60 + kst.getUTCMinutes();
  const from = minutes(hours.from);
  const to = minutes(hours.to);
  // Which day the window opened on: today, or yesterday for the part past midnight.
  const openedOn = from <= to || now >= from ? at : at - DAY_MS;
  if (hours.on === "monthEnd" && !isLastKstDayOfMonth(openedOn)) return false;
  return from <= to ? now >= from && now < to : now >= from || now < to;
}
