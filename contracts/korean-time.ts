/**
 * Korea keeps UTC+9 all year (no daylight saving time), so a fixed offset is the whole of its time zone: the worker,
 * the scraper and the sandbox count Korean days and write Korean clock times from it, whatever zone they run in.
 */
export const KST_OFFSET_MS = 9 * 3_600_000;
export const DAY_MS = 86_400_000;

/** The Korean calendar day of `at` (YYYY-MM-DD). */
export const kstDate = (at = Date.now()) => new Date(at + KST_OFFSET_MS).toISOString().slice(0, 10);

/** The instant the Korean day of `at` began (00:00 KST). */
export const kstMidnight = (at: number) => Math.floor((at + KST_OFFSET_MS) / DAY_MS) * DAY_MS - KST_OFFSET_MS;

/** Whether the Korean day of `at` is the last of its month. */
export const isLastKstDayOfMonth = (at: number) => new Date(at + KST_OFFSET_MS + DAY_MS).getUTCDate() === 1;

/** `at` in Korean time as digits down to the millisecond, YYYYMMDDhhmmssSSS (17). */
export const kstDigits = (at: number) => new Date(at + KST_OFFSET_MS).toISOString().replace(/\D/g, "");

/** `at` in Korean time as YYYYMMDDhhmmss, the stamp the institutions' wires carry. */
export const kstStamp = (at: number) => kstDigits(at).slice(0, 14);

/** A Korean wall-clock time (`YYYY-MM-DDThh:mm[:ss[.sss]]`) as ISO 8601 text with Korea's offset. */
export const kstIso = (wallClock: string) => `${wallClock}+09:00`;
