/** Korea keeps UTC+9 all year (no daylight saving time), so a fixed offset is the whole of its time zone. */
export const KST_OFFSET_MS = 9 * 3_600_000;
export const DAY_MS = 86_400_000;

/** The Korean calendar day of `at` (YYYY-MM-DD). */
export const kstDate = (at: number) => new Date(at + KST_OFFSET_MS).toISOString().slice(0, 10);
