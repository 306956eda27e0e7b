import { raw } from "hono/html";
import { type ConsoleContext, consoleUserOf, workspaceRoleOf } from "./context";
import { jobView, pollIntervalMs } from "../domain/jobs/views";
import { jobActivity, listJobs } from "../domain/jobs/store";
import { DAY_MS, kstDate, kstMidnight } from "../../contracts/korean-time";
import { OVERVIEW_CHART_SCRIPT } from "./assets";
import { nextActionOf } from "./next-action";
import { kst } from "../web/kst";
import { DataTable, Page } from "../web/layout";
import { planUsage, PlanUsageTable } from "./plan-usage";
import { providerName } from "../web/provider-name";
import { WorkspaceNav } from "./workspace-nav";
import { findWorkspace } from "../domain/workspaces/store";
import { currentStatuses } from "../domain/business-status/check";
import { BusinessNotice } from "./business-status";

/** Days the overview charts, today included. */
const DAYS = 14;
const FAILURES_SHOWN = 5;

interface Daily {
  days: string[];
  succeeded: number[];
  failed: number[];
  inProgress: number[];
  records: number[];
}

/** The last DAYS KST days, each with its jobs by outcome and the records its succeeded jobs collected. */
function daily(rows: Awaited<ReturnType<typeof jobActivity>>, today: number): Daily {
  const days = Array.from({ length: DAYS }, (_, i) => kstDate(today - (DAYS - 1 - i) * DAY_MS));
  const index = new Map(days.map((d, i) => [d, i]));
  const series: Daily = { days, succeeded: days.map(() => 0), failed: days.map(() => 0), inProgress: days.map(() => 0), records: days.map(() => 0) };
  for (const row of rows) {
    const i = index.get(row.day);
    if (i === undefined) continue;
    if (row.status === "SUCCEEDED") {
      series.succeeded[i]! += row.jobs;
      series.records[i]! += row.records;
    } else if (row.status === "FAILED") series.failed[i]! += row.jobs;
    else series.inProgress[i]! += row.jobs;
  }
  return series;
}

/** Each provider's finished jobs over the period and the share that succeeded, busiest first. */
function byProvider(rows: Awaited<ReturnType<typeof jobActivity>>) {
  const totals = new Map<string, { succeeded: number; failed: number }>();
  for (const row of rows) {
    const t = totals.get(row.providerCode) ?? { succeeded: 0, failed: 0 };
    if (row.status === "SUCCEEDED") t.succeeded += row.jobs;
    if (row.status === "FAILED") t.failed += row.jobs;
    totals.set(row.providerCode, t);
  }
  return [...totals].map(([code, t]) => ({ code, ...t, rate: t.succeeded + t.failed === 0 ? null : t.succeeded / (t.succeeded + t.failed) })).sort((a, b) => b.succeeded + b.failed - (a.succeeded + a.failed));
}

/** The workspace at a glance: jobs a day by outcome and records collected (charts and the same numbers as tables), success per institution, this month's usage against the plan, and the latest failures with what to do. */
export async function showOverview(c: ConsoleContext<"workspaceId">): Promise<Response> {
  const workspaceId = c.req.valid("param").workspaceId;
  const now = Date.now();
  const since = kstMidnight(now - (DAYS - 1) * DAY_MS);
  const [activity, usage, failures, business] = await Promise.all([
    jobActivity(c.env.DB, workspaceId, since),
    planUsage(c.env.DB, workspaceId, now),
    listJobs(c.env.DB, { workspaceId, limit: FAILURES_SHOWN, statuses: ["FAILED"] }),
    findWorkspace(c.env.DB, workspaceId).then((w) => w?.businessNumber ?? null),
  ]);
  const statuses = business ? await currentStatuses(c.env, workspaceId, [business], now) : new Map();
  const series = daily(activity, now);
  const providers = byProvider(activity);
  const nonce = c.get("cspNonce");
  const jobs = `/console/w/${workspaceId}/jobs`;
  return c.html(
    <Page title="개요" nav={<WorkspaceNav workspaceId={workspaceId} user={consoleUserOf(c)} role={workspaceRoleOf(c)} />}>
      <link rel="stylesheet" href="/console/assets/uplot.css" />
      {business && <BusinessNotice number={business} status={statuses.get(business)} />}
      <h2 id="jobs-title">최근 {DAYS}일 수집 작업</h2>
      <div id="jobs-chart" role="img" aria-labelledby="jobs-title" aria-describedby="daily-table"></div>
      <h2 id="records-title">최근 {DAYS}일 수집한 레코드</h2>
      <div id="records-chart" role="img" aria-labelledby="records-title" aria-describedby="daily-table"></div>
      <details>
        <summary>날짜별 숫자</summary>
        <DataTable id="daily-table" columns={["날짜", "성공", "실패", "진행 중", "레코드"]}>
          {series.days.map((day, i) => (
            <tr data-day={day}>
              <td>{day}</td>
              <td data-succeeded>{series.succeeded[i]}</td>
              <td data-failed>{series.failed[i]}</td>
              <td>{series.inProgress[i]}</td>
              <td data-records>{series.records[i]!.toLocaleString("ko-KR")}</td>
            </tr>
          ))}
        </DataTable>
      </details>
      <h2>기관별 성공률</h2>
      <DataTable columns={["기관", "성공", "실패", "성공률"]}>
        {providers.map((p) => (
          <tr data-provider={p.code}>
            <td>{providerName(p.code)}</td>
            <td>{p.succeeded}</td>
            <td>{p.failed}</td>
            <td data-rate>{p.rate === null ? "-" : `${Math.round(p.rate * 100)}%`}</td>
          </tr>
        ))}
      </DataTable>
      {providers.length === 0 && <p>최근 {DAYS}일 동안 끝난 작업이 없습니다.</p>}
      <PlanUsageTable usage={usage} />
      <h2>최근 실패</h2>
      <ul id="recent-failures">
        {failures.slice(0, FAILURES_SHOWN).map((row) => {
          const view = jobView(row, pollIntervalMs(c.env));
          if (view.kind !== "Failed") return null;
          return (
            <li data-code={view.error.code}>
              <a href={`${jobs}/${row.id}`}>
                {providerName(row.providerCode)} · {kst(row.createdAt)}
              </a>{" "}
              {view.error.message} <strong>다음 할 일:</strong> {nextActionOf(view.error)}
            </li>
          );
        })}
      </ul>
      {failures.length === 0 && <p>실패한 작업이 없습니다.</p>}
      <script type="application/json" id="overview-data">
        {raw(JSON.stringify(series).replaceAll("<", "\\u003c"))}
      </script>
      <script nonce={nonce} src="/console/assets/uplot.js"></script>
      <script nonce={nonce}>{raw(OVERVIEW_CHART_SCRIPT)}</script>
    </Page>,
  );
}
