import { DAY_MS, isLastKstDayOfMonth, kstMidnight } from "../../../contracts/korean-time";

/**
 * A window the institution closes every day, in Korean time: `from` to `to` ("HH:MM"); a `to` before `from`
 * runs past midnight (23:50 to 00:10). `on: "monthEnd"` opens it only on the last day of each month (a month-end
 * batch), past midnight into the 1st.
 */
export interface DailyWindow {
  from: string;
  to: string;
  on?: "monthEnd";
  /** Where the window is published: the institution's own notice. */
  note: string;
}

export interface MaintenanceWindow {
  startsAt: number;
  endsAt: number;
  note: string;
}

const minutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/** The day's occurrence of each window, for the Korean days around `at`, in time order. */
function occurrences(windows: readonly DailyWindow[], at: number, days: number): MaintenanceWindow[] {
  const firstDay = kstMidnight(at);
  const found: MaintenanceWindow[] = [];
  for (let day = -1; day <= days; day++) {
    const dayStart = firstDay + day * DAY_MS;
    const monthEnd = isLastKstDayOfMonth(dayStart);
    for (const w of windows) {
      if (w.on === "monthEnd" && !monthEnd) continue;
      const startsAt = dayStart + minutes(w.from) * 60_000;
      const length = (minutes(w.to) - minutes(w.from) + 24 * 60) % (24 * 60);
      found.push({ startsAt, endsAt: startsAt + length * 60_000, note: w.note });
    }
  }
  return found.sort((a, b) => a.startsAt - b.startsAt);
}

/** The windows still to end after `at`, the next `count` of them. */
export function nextWindows(windows: readonly DailyWindow[], at: number, count: number): MaintenanceWindow[] {
  if (windows.length === 0) return [];
  return occurrences(windows, at, Math.ceil(count / windows.length) + 1).filter((w) => w.endsAt > at).slice(0, count);
}

/**
 * The window a run from `at` lasting `runMs` would meet (one open at `at`, or one opening before the run would
 * end), with any window it runs straight into after that; null when the run fits before the next one.
 */
export function windowMet(windows: readonly DailyWindow[], at: number, runMs: number): MaintenanceWindow | null {
  return firstMet(nextWindows(windows, at, 2 * windows.length), at, runMs);
}

/** windowMet over windows already laid out in time order (daily ones and announced outages together). */
export function firstMet(ahead: readonly MaintenanceWindow[], at: number, runMs: number): MaintenanceWindow | null {
  const first = ahead.find((w) => w.endsAt > at && w.startsAt < at + runMs);
  if (!first) return null;
  // Back-to-back windows are one closure.
  let endsAt = first.endsAt;
  for (const w of ahead) if (w.startsAt <= endsAt && w.endsAt > endsAt) endsAt = w.endsAt;
  return { ...first, endsAt };
}
