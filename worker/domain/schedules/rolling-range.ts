import { DAY_MS, kstDate } from "../../../contracts/korean-time";

/** A run's range: the `lastDays` days ending on the Korean day of `at`, as a job's params name them. */
export function rollingRange(lastDays: number, at: number): { dateRangeStart: string; dateRangeEnd: string } {
  return { dateRangeStart: kstDate(at - (lastDays - 1) * DAY_MS), dateRangeEnd: kstDate(at) };
}
