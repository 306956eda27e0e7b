import { kstMonthBounds } from "../domain/jobs/kst-month";
import { jobsCreatedBetween, jobsCreatedSince } from "../domain/jobs/store";
import { stepsUsedSince } from "../domain/jobs/step-cap";
import { workspaceRow } from "../domain/workspaces/store";
import { jobBilling } from "../domain/workspaces/job-billing";
import { PLAN_OVERAGE } from "../domain/workspaces/plans";
import { findSubscription } from "../domain/billing/subscriptions";
import { kst } from "../web/kst";
import { SidewaysScroll } from "../web/layout";

/** A paid period's jobs against what its plan includes, as its renewal will count them (billing/subscriptions.ts overageOf). */
export interface PlanAllowance {
  used: number;
  includedJobs: number;
  perJob: number;
  periodStart: number;
  periodEnd: number;
}

export interface PlanUsage {
  jobsUsed: number;
  monthlyJobCap: number | null;
  stepsUsed: number;
  monthlyStepCap: number | null;
  /** Null without a paid period of a plan with an allowance (FREE, INTERNAL, a PRO an operator gave without one). */
  allowance: PlanAllowance | null;
}

/** This KST month's jobs and scraping steps against the caps of the plan that bills the workspace, and a paid period's allowance. */
export async function planUsage(d1: D1Database, workspaceId: string, now: number = Date.now()): Promise<PlanUsage> {
  const billing = await jobBilling(d1, workspaceId);
  const monthStart = kstMonthBounds(now).start;
  const [jobsUsed, stepsUsed, subscription, payer] = await Promise.all([
    jobsCreatedSince(d1, billing.billingWorkspaceId, monthStart),
    stepsUsedSince(d1, billing.billingWorkspaceId, monthStart),
    findSubscription(d1, billing.billingWorkspaceId),
    workspaceRow(d1, billing.billingWorkspaceId),
  ]);
  const terms = payer ? PLAN_OVERAGE[payer.plan] : null;
  const allowance =
    subscription && terms
      ? {
          used: await jobsCreatedBetween(d1, billing.billingWorkspaceId, subscription.currentPeriodStart, subscription.currentPeriodEnd),
          ...terms,
          periodStart: subscription.currentPeriodStart,
          periodEnd: subscription.currentPeriodEnd,
        }
      : null;
  return { jobsUsed, monthlyJobCap: billing.monthlyJobCap, stepsUsed, monthlyStepCap: billing.monthlyStepCap, allowance };
}

const count = (n: number) => n.toLocaleString("ko-KR");

/** A count against its cap ("12 / 300", or "12 / 제한 없음"). */
const ofCap = (used: number, cap: number | null) => `${count(used)} / ${cap === null ? "제한 없음" : count(cap)}`;

/** "12 / 5,000건 포함, 초과분 건당 30원", and what is past it so far: a paid plan is unlimited, but not free past its allowance. */
function ofAllowance(allowance: PlanAllowance): string {
  const over = Math.max(0, allowance.used - allowance.includedJobs);
  const past = over > 0 ? ` · 지금까지 초과 ${count(over)}건, 다음 청구서에 ${count(over * allowance.perJob)}원 (부가세 별도)` : "";
  return `${count(allowance.used)} / ${count(allowance.includedJobs)}건 포함, 초과분 건당 ${count(allowance.perJob)}원${past}`;
}

export const PlanUsageTable = (props: { usage: PlanUsage }) => (
  <SidewaysScroll>
    <table>
      <caption>이번 달 사용량</caption>
      <tbody>
        {props.usage.allowance ? (
          <tr>
            <th scope="row">
              수집 작업 (결제 기간 {kst(props.usage.allowance.periodStart)} ~ {kst(props.usage.allowance.periodEnd)})
            </th>
            <td id="usage-jobs" data-used={props.usage.allowance.used} data-included={props.usage.allowance.includedJobs}>
              {ofAllowance(props.usage.allowance)}
            </td>
          </tr>
        ) : (
          <tr>
            <th scope="row">수집 작업</th>
            <td id="usage-jobs">{ofCap(props.usage.jobsUsed, props.usage.monthlyJobCap)}</td>
          </tr>
        )}
        <tr>
          <th scope="row">수집 단계</th>
          <td id="usage-steps">{ofCap(props.usage.stepsUsed, props.usage.monthlyStepCap)}</td>
        </tr>
      </tbody>
    </table>
  </SidewaysScroll>
);
