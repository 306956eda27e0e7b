const DAY_MS = 86_400_000;
const KST_MS = 9 * 3_600_000;
const kstDate = (at: number) => new Date(at + KST_MS).toISOString().slice(0, 10);

/** A run's range: the `lastDays` days ending on the Korean day of `at`, as a job's params name them. */
export function rollingRange(lastDays: number, at: number): { dateRangeStart: string; dateRangeEnd: string } {
  return { dateRangeStart: kstDate(at - (lastDays - 1) * DAY_MS), dateRangeEnd: kstDate(at) };
}
