import { eq, inArray, sql } from "drizzle-orm";
import { database } from "../../platform/database/client";
import { ApiError, fieldError } from "../../platform/errors/api-error";
import { type Plan, PLAN_RESULTS_RETENTION } from "./plans";
import { type JobBillingRow, jobBillingStatement } from "./job-billing";
import { workspaces } from "./tables";

export const DAY_MS = 86_400_000;
/** The shortest period a workspace may choose: a day, so a job's results can still be fetched once after it finishes. */
export const MIN_RESULTS_RETENTION_DAYS = 1;

/** A workspace's results retention: what it chose (null: its plan's default), what applies, and its plan's bounds. */
export interface ResultsRetention {
  plan: Plan;
  chosenDays: number | null;
  days: number;
  defaultDays: number;
  maxDays: number;
}

/**
 * The retention of a billing row: the plan's default unless chosen, and never past the plan's maximum, so a plan
 * that lowers it (a downgrade) applies at once to what finishes next, without rewriting any setting.
 */
export function retentionOf(row: Pick<JobBillingRow, "plan" | "resultsRetentionDays"> | null | undefined): ResultsRetention {
  const plan = row?.plan ?? "FREE";
  const { defaultDays, maxDays } = PLAN_RESULTS_RETENTION[plan];
  const chosenDays = row?.resultsRetentionDays ?? null;
  return { plan, chosenDays, days: Math.min(chosenDays ?? defaultDays, maxDays), defaultDays, maxDays };
}

/**
 * The retention that applies to a workspace's jobs: its billing workspace's (a partner's, for the businesses it
 * acts for), since that is who pays for keeping them and who sets it.
 */
export async function resultsRetention(d1: D1Database, workspaceId: string): Promise<ResultsRetention> {
  return retentionOf(await jobBillingStatement(d1, workspaceId).first<JobBillingRow>());
}

/**
 * Sets the billing workspace's retention: whole days from MIN_RESULTS_RETENTION_DAYS to its plan's maximum, or null
 * for the plan's default. Anything else is 400 INVALID_PARAM_FORMAT on `field`, saying the bounds. Results of jobs
 * that finished already keep the expiry they were given (docs/retention.md).
 */
export async function setResultsRetention(d1: D1Database, workspaceId: string, days: number | null, field: string): Promise<ResultsRetention> {
  const current = await resultsRetention(d1, workspaceId);
  if (days !== null && !(Number.isInteger(days) && days >= MIN_RESULTS_RETENTION_DAYS && days <= current.maxDays)) {
    const message = `결과 보관 기간은 ${MIN_RESULTS_RETENTION_DAYS}일부터 현재 플랜의 최대 ${current.maxDays}일까지의 정수(일)로 정해 주세요. 플랜 기본값(${current.defaultDays}일)으로 되돌리려면 null을 보내 주세요.`;
    throw new ApiError("INVALID_PARAM_FORMAT", { message, fieldErrors: [fieldError(field, "INVALID_PARAM_FORMAT", message)] });
  }
  const billing = database(d1).select({ id: sql`coalesce(${workspaces.billingWorkspaceId}, ${workspaces.id})` }).from(workspaces).where(eq(workspaces.id, workspaceId));
  await database(d1).update(workspaces).set({ resultsRetentionDays: days }).where(inArray(workspaces.id, billing));
  return retentionOf({ plan: current.plan, resultsRetentionDays: days });
}
