import type { JobBilling } from "../workspaces/store";
import { kstMonthBounds } from "./kst-month";
import { stepsUsedSince } from "./store";

/** Scraping steps the billing workspace's plan still allows this KST month; null when its plan has no step cap. */
export async function monthlyStepsLeft(d1: D1Database, billing: JobBilling, now: number): Promise<number | null> {
  if (billing.monthlyStepCap === null) return null;
  return billing.monthlyStepCap - (await stepsUsedSince(d1, billing.billingWorkspaceId, kstMonthBounds(now).start));
}
