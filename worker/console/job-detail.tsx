import { raw } from "hono/html";
import type { JobError } from "../../contracts/job-failures";
import { nextActionOf } from "./next-action";
import { findSchema } from "../domain/catalog/schemas";
import { type ConsoleContext, consoleUserOf, workspaceRoleOf } from "./context";
import { resultRecord } from "../domain/results/changes";
import { resultUnits } from "../domain/jobs/results-rows";
import { type ResultFile, resultsDownload } from "../domain/results/download";
import { csvColumns } from "../domain/results/csv-format";
import { firstRecords } from "../domain/results/record-lines";
import { workspaceJob } from "../domain/jobs/workspace-job";
import { jobView } from "../domain/jobs/views";
import { JobStatusCell } from "./job-status";
import { CsrfField, DataTable, Outcome, Page } from "../web/layout";
import { LIVE_PROGRESS_SCRIPT } from "./live-progress";
import { WorkspaceNav } from "./workspace-nav";
import { ApiError } from "../platform/errors/api-error";
import { kst } from "../web/kst";
import { ConfirmBox, requireConfirmed } from "../web/confirm";
import { type FormOutcome, onPage } from "../web/form-outcome";
import { verifiedForm } from "../domain/console-sessions/csrf";
import { deleteResultsAndExports } from "../domain/jobs/results-rows";
import { isFinished } from "../domain/jobs/store";
import { roleMay } from "../domain/workspaces/roles";
import { type CredentialRow, listCredentials } from "../domain/credentials/store";
import { createJob } from "../domain/jobs/create";
import type { JobRow } from "../domain/jobs/store";
import { providerName } from "../web/provider-name";
import { credentialAnchor } from "./credentials";
import { unitHistory } from "../domain/jobs/unit-history";
import { JobTimeline } from "./job-timeline";

const PREVIEW_RECORDS = 10;

/** Results deleted (expired, or on request) are no failure of the page: it says so where the preview would be. */
function deletedResults(err: unknown): ApiError {
  if (err instanceof ApiError && err.code === "DATA_JOB_RESULTS_DELETED") return err;
  throw err;
}

/** Where a failure that no retry can mend is fixed: the credential's row, the credentials to register one, the form, the plan. */
function fixLink(error: JobError, job: JobRow, workspaceId: string): { href: string; text: string } | null {
  const w = `/console/w/${workspaceId}`;
  switch (error.category) {
    case "CREDENTIAL":
    case "USER_ENVIRONMENT":
      return job.credentialId ? { href: `${w}/credentials#${credentialAnchor(job.credentialId)}`, text: "이 작업의 자격 증명 보기" } : { href: `${w}/credentials`, text: "자격 증명 관리" };
    case "CREDENTIAL_MISSING":
      return { href: `${w}/credentials`, text: "자격 증명 등록" };
    case "INVALID_INPUT":
      return { href: `${w}/jobs`, text: "조건을 고쳐 새로 수집" };
    case "OTHER":
      return error.code === "WORKSPACE_QUOTA_EXCEEDED" ? { href: `${w}/billing`, text: "플랜 보기" } : null;
    case "TRANSIENT":
      return null;
  }
}

const CREDENTIAL_STATE = { SUPERSEDED: "교체됨", DELETED: "삭제됨" } as const;

/** The credential a job logged in with, as its row stands now: linked to that row, with why it no longer serves. */
function JobCredential(props: { row: CredentialRow | undefined; id: string; workspaceId: string }) {
  if (!props.row) return <>{props.id.slice(0, 8)}</>;
  const row = props.row;
  const state = row.status !== "ACTIVE" ? CREDENTIAL_STATE[row.status] : row.invalidReason ? `다시 등록 필요 (${row.invalidReason})` : null;
  return (
    <>
      <a id="job-credential-link" href={`/console/w/${props.workspaceId}/credentials#${credentialAnchor(row.id)}`}>
        {row.label ?? row.id.slice(0, 8)} · {providerName(row.providerCode)}
      </a>
      {state && <span class="badge warning"> {state}</span>}
    </>
  );
}

async function jobPage(c: ConsoleContext<"workspaceId" | "jobId">, shown: FormOutcome = {}): Promise<Response> {
  const user = consoleUserOf(c);
  const workspaceId = c.req.valid("param").workspaceId;
  const job = await workspaceJob(c.env, workspaceId, c.req.valid("param").jobId);
  const view = jobView(job);
  const schema = findSchema(job.schema)!;
  const base = `/console/w/${workspaceId}/jobs`;
  const units = await resultUnits(c.env.DB, job).catch(deletedResults);
  const preview = units instanceof ApiError ? [] : await firstRecords(c.env.RESULTS, job.id, units.units, PREVIEW_RECORDS);
  const columns = csvColumns(resultRecord(job));
  const history = await unitHistory(c.env.DB, job.id);
  const credential = job.credentialId ? (await listCredentials(c.env.DB, workspaceId, undefined, job.providerCode)).find((row) => row.id === job.credentialId) : undefined;
  const fix = view.kind === "Failed" && !view.error.retryable ? fixLink(view.error, job, workspaceId) : null;
  return c.html(
    <Page title={`작업 ${job.id.slice(0, 8)}`} nav={<WorkspaceNav workspaceId={workspaceId} user={user} role={workspaceRoleOf(c)} />}>
      <Outcome shown={shown} />
      <p>
        <a href={base}>← 작업 목록</a>
      </p>
      <dl>
        <dt>기관 · 데이터</dt>
        <dd>
          {job.providerCode} · {schema.title}
        </dd>
        <dt>자격 증명</dt>
        <dd id="job-credential">{job.credentialId ? <JobCredential row={credential} id={job.credentialId} workspaceId={workspaceId} /> : "없음"}</dd>
        {schema.datedRange && (
          <>
            <dt>조회 기간</dt>
            <dd id="job-period">
              {String(job.params.dateRangeStart ?? "")} ~ {String(job.params.dateRangeEnd ?? "")}
            </dd>
          </>
        )}
        <dt>요청 시각</dt>
        <dd id="job-created-at">{kst(job.createdAt)}</dd>
        {job.finishedAt !== null && (
          <>
            <dt>끝난 시각</dt>
            <dd id="job-finished-at">{kst(job.finishedAt)}</dd>
          </>
        )}
        <dt>상태</dt>
        <dd id="job-status">
          <JobStatusCell job={job} pollUrl={`${base}/${job.id}/status.json`} brief />
        </dd>
      </dl>
      <JobTimeline job={job} units={history} />
      {view.kind === "Failed" && (
        <section class="alert" role="alert" data-code={view.error.code} aria-labelledby="failure-title">
          <h2 id="failure-title">수집에 실패했습니다 ({view.error.code})</h2>
          <p id="failure-message">{view.error.message}</p>
          {view.error.retryable ? (
            <>
              <p id="next-action">다음 할 일: {nextActionOf(view.error)}</p>
              {/* The job's own inputs, read again from its row: its credential, params and delivery route, never the form's defaults. */}
              <form id="retry" method="post" action={`${base}/${job.id}/retry`}>
                <CsrfField token={user.csrf} />
                <button type="submit">같은 조건으로 다시 수집</button>
              </form>
            </>
          ) : (
            <p id="next-action">
              먼저 고칠 것: {nextActionOf(view.error)}
              {fix && (
                <>
                  {" "}
                  <a id="fix-link" href={fix.href}>
                    {fix.text}
                  </a>
                </>
              )}
            </p>
          )}
        </section>
      )}
      {job.resultsExpireAt !== null && !(units instanceof ApiError) && (
        <p id="results-expire-at">
          결과 보관 기한: {kst(job.resultsExpireAt)} (지나면 결과는 지워지고 작업 정보만 남습니다)
        </p>
      )}
      {units instanceof ApiError ? (
        <p id="results-deleted" class="notice" role="status">
          {units.message}
        </p>
      ) : (
        <>
          <h2>결과 미리보기 ({units.recordCount}건 중 처음 {preview.length}건)</h2>
          <p>
            <a id="csv-download" href={`${base}/${job.id}/results.csv`} download>
              CSV 내려받기
            </a>{" "}
            <a id="xlsx-download" href={`${base}/${job.id}/results.xlsx`} download>
              Excel 내려받기
            </a>
          </p>
        </>
      )}
      {preview.length > 0 && (
        <DataTable id="preview" columns={columns.map((col) => col.label)}>
          {preview.map((record) => (
            <tr>
              {columns.map((col) => (
                <td>{record[col.key] === undefined || record[col.key] === null ? "" : String(record[col.key])}</td>
              ))}
            </tr>
          ))}
        </DataTable>
      )}
      {!(units instanceof ApiError) && isFinished(job) && roleMay(workspaceRoleOf(c), "results.retention") && (
        <form id="delete-results" method="post" action={`${base}/${job.id}/delete-results`}>
          <CsrfField token={user.csrf} />
          <ConfirmBox>이 작업의 결과(JSON, CSV)를 지금 지웁니다. 지운 결과는 되살릴 수 없고, 작업 정보만 남습니다.</ConfirmBox>
          <button type="submit" class="danger">
            결과 삭제
          </button>
        </form>
      )}
      <script nonce={c.get("cspNonce")}>{raw(LIVE_PROGRESS_SCRIPT)}</script>
    </Page>,
    shown.error ? (shown.error.status as 400) : 200,
  );
}

export const showJob = (c: ConsoleContext<"workspaceId" | "jobId">) => jobPage(c);

/** DELETE /data-jobs/{id}/results from the job's page, once its box is ticked; the page then says the results are gone. */
export async function deleteResultsForm(c: ConsoleContext<"workspaceId" | "jobId">): Promise<Response> {
  const fields = await verifiedForm(c, consoleUserOf(c).sessionToken);
  const job = await workspaceJob(c.env, c.req.valid("param").workspaceId, c.req.valid("param").jobId);
  return onPage(c, jobPage, async () => {
    requireConfirmed(fields, "결과를 삭제하려면 확인란을 선택해 주세요.");
    const deletion = await deleteResultsAndExports(c, c.env, job, Date.now());
    return `결과 ${deletion.recordCount}건이 ${kst(Date.parse(deletion.deletedAt))}에 삭제되었습니다. 작업 정보는 남습니다.`;
  });
}

/**
 * Runs a failed job again under exactly its conditions: the credential it ran on (never the provider's default, which
 * may be another login), every param and its delivery route, in the job's own workspace. Only a failure the catalog
 * calls retryable is retried; any other is fixed first, as the page says.
 */
export async function retryJobForm(c: ConsoleContext<"workspaceId" | "jobId">): Promise<Response> {
  await verifiedForm(c, consoleUserOf(c).sessionToken);
  const workspaceId = c.req.valid("param").workspaceId;
  const job = await workspaceJob(c.env, workspaceId, c.req.valid("param").jobId);
  const view = jobView(job);
  try {
    if (view.kind !== "Failed" || !view.error.retryable) {
      throw new ApiError("INVALID_PARAM_FORMAT", { message: "같은 조건으로 다시 수집할 수 없는 작업입니다. 일시적인 오류로 실패한 작업만 그대로 다시 수집하고, 다른 실패는 이 페이지의 안내대로 먼저 고쳐 주세요." });
    }
    const retried = await createJob(c.env, workspaceId, {
      providerCode: job.providerCode,
      schema: job.schema,
      params: job.params,
      credentialId: job.credentialId ?? undefined,
      deliveryRouteId: job.deliveryRouteId ?? undefined,
    });
    return c.redirect(`/console/w/${workspaceId}/jobs/${retried.id}`, 303);
  } catch (err) {
    if (err instanceof ApiError && err.status < 500) return jobPage(c, { error: err });
    throw err;
  }
}

/** The job's results file (CSV or Excel), as the API serves it. */
export const downloadJobFile = (file: ResultFile) => async (c: ConsoleContext<"workspaceId" | "jobId">): Promise<Response> => {
  const job = await workspaceJob(c.env, c.req.valid("param").workspaceId, c.req.valid("param").jobId);
  return resultsDownload(c, c.env.RESULTS, job, await resultUnits(c.env.DB, job), file);
};
