import { raw } from "hono/html";
import { listCredentials } from "../domain/credentials/store";
import { findSchema } from "../domain/catalog/schemas";
import { verifiedForm } from "../domain/console-sessions/csrf";
import { JOB_STATUSES, type JobStatus } from "../domain/jobs/tables";
import { type ConsoleContext, consoleUserOf, workspaceRoleOf } from "./context";
import { ApiError } from "../platform/errors/api-error";
import { createJob } from "../domain/jobs/create";
import { listJobs } from "../domain/jobs/store";
import { workspaceJob } from "../domain/jobs/workspace-job";
import { jobView, pollIntervalMs } from "../domain/jobs/views";
import { JobStatusCell } from "./job-status";
import { CsrfField, DataTable, ErrorAlert, Page } from "../web/layout";
import { LIVE_PROGRESS_SCRIPT } from "./live-progress";
import { parseTarget, TargetFields } from "./target-fields";
import { WorkspaceNav } from "./workspace-nav";
import { DAY_MS, kstDate } from "../../contracts/korean-time";
import { kst } from "../web/kst";
import { providerName } from "../web/provider-name";

const STATUS_LABELS: Record<JobStatus, string> = { PENDING: "대기", RUNNING: "수집 중", SUCCEEDED: "완료", FAILED: "실패" };
const PAGE_SIZE = 50;

async function jobsPage(c: ConsoleContext<"workspaceId">, error?: ApiError) {
  const user = consoleUserOf(c);
  const workspaceId = c.req.valid("param").workspaceId;
  const status = (JOB_STATUSES as readonly string[]).includes(c.req.query("status") ?? "") ? (c.req.query("status") as JobStatus) : undefined;
  const rows = (await listJobs(c.env.DB, { workspaceId, limit: PAGE_SIZE, statuses: status ? [status] : undefined })).slice(0, PAGE_SIZE);
  const base = `/console/w/${workspaceId}/jobs`;
  const today = Date.now();
  const live = (await listCredentials(c.env.DB, workspaceId)).filter((row) => row.status === "ACTIVE");
  return c.html(
    <Page title="수집 작업" nav={<WorkspaceNav workspaceId={workspaceId} user={user} role={workspaceRoleOf(c)} />}>
      <ErrorAlert error={error} />
      <h2>새로 수집하기</h2>
      <form method="post" action={base}>
        <CsrfField token={user.csrf} />
        <TargetFields credentials={live} defaultCredential="기관의 기본 자격 증명" />
        <label for="dateRangeStart">조회 시작일 (기간이 있는 데이터만)</label>
        <input id="dateRangeStart" name="dateRangeStart" type="date" value={kstDate(today - 29 * DAY_MS)} />
        <label for="dateRangeEnd">조회 종료일</label>
        <input id="dateRangeEnd" name="dateRangeEnd" type="date" value={kstDate(today)} />
        <button type="submit">수집 시작</button>
      </form>
      <h2>작업 목록</h2>
      <form method="get" action={base}>
        <label for="status">상태</label>
        <select id="status" name="status">
          <option value="">전체</option>
          {JOB_STATUSES.map((s) => (
            <option value={s} selected={s === status}>
              {STATUS_LABELS[s]}
            </option>
          ))}
        </select>
        <button type="submit">거르기</button>
      </form>
      <DataTable columns={["작업", "기관 · 데이터", "요청 · 끝난 시각", "상태"]}>
        {rows.map((job) => (
          <tr data-job-id={job.id}>
            <td>
              <a href={`${base}/${job.id}`}>{job.id.slice(0, 8)}</a>
            </td>
            <td>
              {providerName(job.providerCode)} · {findSchema(job.schema)?.title ?? job.schema}
            </td>
            <td data-created-at={job.createdAt} data-finished-at={job.finishedAt ?? ""}>
              {kst(job.createdAt)}
              <br />
              {job.finishedAt === null ? "끝나지 않음" : `→ ${kst(job.finishedAt)}`}
            </td>
            <td>
              <JobStatusCell job={job} pollUrl={`${base}/${job.id}/status.json`} />
            </td>
          </tr>
        ))}
      </DataTable>
      {rows.length === 0 && <p>작업이 없습니다.</p>}
      <script nonce={c.get("cspNonce")}>{raw(LIVE_PROGRESS_SCRIPT)}</script>
    </Page>,
    (error?.status ?? 200) as 200,
  );
}

export const showJobs = (c: ConsoleContext<"workspaceId">) => jobsPage(c);

/** The refresh action: a job through the one place jobs are made (domain/jobs/create.ts), then its page, which follows it. */
export async function refreshJob(c: ConsoleContext<"workspaceId">): Promise<Response> {
  const fields = await verifiedForm(c, consoleUserOf(c).sessionToken);
  const workspaceId = c.req.valid("param").workspaceId;
  const { providerCode, schema } = parseTarget(fields.target);
  const params = findSchema(schema)?.datedRange ? { dateRangeStart: fields.dateRangeStart, dateRangeEnd: fields.dateRangeEnd } : {};
  try {
    const job = await createJob(c.env, workspaceId, { providerCode, schema, params, credentialId: fields.credentialId || undefined });
    return c.redirect(`/console/w/${workspaceId}/jobs/${job.id}`, 303);
  } catch (err) {
    if (err instanceof ApiError && err.status < 500) return jobsPage(c, err);
    throw err;
  }
}

/** The job's API view, for the pages' live progress. */
export async function jobStatusJson(c: ConsoleContext<"workspaceId" | "jobId">): Promise<Response> {
  return c.json(jobView(await workspaceJob(c.env, c.req.valid("param").workspaceId, c.req.valid("param").jobId), pollIntervalMs(c.env)));
}
