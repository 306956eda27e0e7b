import { kstMonthBounds } from "../domain/jobs/kst-month";
import { jobsCreatedSince } from "../domain/jobs/store";
import { stepsUsedSince } from "../domain/jobs/step-cap";
import { jobBilling } from "../domain/workspaces/store";

export interface PlanUsage {
  jobsUsed: number;
  monthlyJobCap: number | null;
  stepsUsed: number;
  monthlyStepCap: number | null;
}

/** This KST month's jobs and scraping steps against the caps of the plan that bills the workspace. */
export async function planUsage(d1: D1Database, workspaceId: string, now: number = Date.now()): Promise<PlanUsage> {
  const billing = await jobBilling(d1, workspaceId);
  const monthStart = kstMonthBounds(now).start;
  const [jobsUsed, stepsUsed] = await Promise.all([jobsCreatedSince(d1, billing.billingWorkspaceId, monthStart), stepsUsedSince(d1, billing.billingWorkspaceId, monthStart)]);
  return { jobsUsed, monthlyJobCap: billing.monthlyJobCap, stepsUsed, monthlyStepCap: billing.monthlyStepCap };
}

/** A count against its cap ("12 / 300", or "12 / 제한 없음"). */
const ofCap = (used: number, cap: number | null) => `${used.toLocaleString("ko-KR")} / ${cap === null ? "제한 없음" : cap.toLocaleString("ko-KR")}`;

export const PlanUsageTable = (props: { usage: PlanUsage }) => (
  <div class="table">
    <table>
      <caption>이번 달 사용량</caption>
      <tbody>
        <tr>
          <th scope="row">수집 작업</th>
          <td id="usage-jobs">{ofCap(props.usage.jobsUsed, props.usage.monthlyJobCap)}</td>
        </tr>
        <tr>
          <th scope="row">수집 단계</th>
          <td id="usage-steps">{ofCap(props.usage.stepsUsed, props.usage.monthlyStepCap)}</td>
        </tr>
      </tbody>
    </table>
  </div>
);
