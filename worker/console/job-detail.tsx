import { raw } from "hono/html";
import type { JobErrorCategory } from "../../contracts/job-failures";
import { findSchema } from "../domain/catalog/schemas";
import { type ConsoleContext, consoleUserOf, workspaceRoleOf } from "./context";
import { resultRecord } from "../domain/results/changes";
import { resultUnits } from "../domain/jobs/result-units";
import { type ResultFile, resultsDownload } from "../domain/jobs/results-download";
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
import { deleteResultsAndExports } from "../domain/jobs/results-at-edge";
import { isFinished } from "../domain/jobs/store";
import { roleMay } from "../domain/workspaces/roles";

const PREVIEW_RECORDS = 10;

/** Results deleted (expired, or on request) are no failure of the page: it says so where the preview would be. */
function deletedResults(err: unknown): ApiError {
  if (err instanceof ApiError && err.code === "DATA_JOB_RESULTS_DELETED") return err;
  throw err;
}

/** What a person can do about a failure, by its category (the message itself already says it in words). */
export const NEXT_ACTION: Record<JobErrorCategory, string> = {
  CREDENTIAL: "자격 증명을 확인한 뒤 다시 등록하고 새로 수집해 주세요.",
  CREDENTIAL_MISSING: "이 기관의 자격 증명을 등록한 뒤 새로 수집해 주세요.",
  USER_ENVIRONMENT: "기관 사이트에서 계정 상태를 확인한 뒤 새로 수집해 주세요.",
  INVALID_INPUT: "조회 조건을 고쳐 새로 수집해 주세요.",
  TRANSIENT: "일시적인 문제입니다. 잠시 후 같은 조건으로 다시 수집해 주세요.",
  OTHER: "문제가 계속되면 작업 ID와 함께 문의해 주세요.",
};

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
        <dt>상태</dt>
        <dd id="job-status">
          <JobStatusCell job={job} pollUrl={`${base}/${job.id}/status.json`} />
        </dd>
      </dl>
      {view.kind === "Failed" && (
        <section class="alert" role="alert" data-code={view.error.code} aria-labelledby="failure-title">
          <h2 id="failure-title">수집에 실패했습니다 ({view.error.code})</h2>
          <p id="failure-message">{view.error.message}</p>
          <p id="next-action">다음 할 일: {NEXT_ACTION[view.error.category]}</p>
          <form method="post" action={base}>
            <CsrfField token={user.csrf} />
            <input type="hidden" name="target" value={`${job.providerCode}|${job.schema}`} />
            {schema.datedRange && <input type="hidden" name="dateRangeStart" value={String(job.params.dateRangeStart ?? "")} />}
            {schema.datedRange && <input type="hidden" name="dateRangeEnd" value={String(job.params.dateRangeEnd ?? "")} />}
            <button type="submit">같은 조건으로 다시 수집</button>
          </form>
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

/** The job's results file (CSV or Excel), as the API serves it. */
export const downloadJobFile = (file: ResultFile) => async (c: ConsoleContext<"workspaceId" | "jobId">): Promise<Response> =>
  resultsDownload(c, c.env, await workspaceJob(c.env, c.req.valid("param").workspaceId, c.req.valid("param").jobId), file);
