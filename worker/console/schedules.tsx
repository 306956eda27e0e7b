import { raw } from "hono/html";
import { findSchema } from "../domain/catalog/schemas";
import { verifiedForm } from "../domain/console-sessions/csrf";
import { listCredentials } from "../domain/credentials/store";
import { type ConsoleContext, consoleUserOf, workspaceRoleOf } from "./context";
import { CreateScheduleBodySchema } from "../domain/schedules/inputs";
import { createSchedule, ownSchedule, pauseSchedule, removeSchedule, resumeSchedule } from "../domain/schedules/manage";
import { listSchedules, MAX_SCHEDULES_PER_WORKSPACE } from "../domain/schedules/store";
import { roleMay } from "../domain/workspaces/roles";
import { scheduleRuns } from "../domain/jobs/store";
import { JobStatusCell } from "./job-status";
import { kst } from "../web/kst";
import { LIVE_PROGRESS_SCRIPT } from "./live-progress";
import { CsrfField, DataTable, DeleteForm, Outcome, Page } from "../web/layout";
import { asApiBody, type FormOutcome, onPage } from "../web/form-outcome";
import { providerName } from "../web/provider-name";
import { parseTarget, TargetFields } from "./target-fields";
import { WorkspaceNav } from "./workspace-nav";

const STATUS = { ACTIVE: "실행 중", PAUSED: "일시 중지" } as const;
const RUNS_SHOWN = 50;

/** Each run of a schedule on a 간편인증 login rings its holder's phone (docs/scheduling.md), so the form says so on choosing one. */
const SIMPLE_AUTH_HINT_SCRIPT = `{
const credential = document.getElementById("credentialId"), hint = document.getElementById("simple-auth-hint");
const showHint = () => { hint.hidden = credential.selectedOptions[0]?.dataset.authMethod !== "SIMPLE_AUTH"; };
credential.addEventListener("change", showHint);
showHint();
}`;

async function schedulesPage(c: ConsoleContext<"workspaceId">, shown: FormOutcome = {}) {
  const user = consoleUserOf(c);
  const role = workspaceRoleOf(c);
  const workspaceId = c.req.valid("param").workspaceId;
  const base = `/console/w/${workspaceId}/schedules`;
  const rows = (await listSchedules(c.env.DB, workspaceId, MAX_SCHEDULES_PER_WORKSPACE)).slice(0, MAX_SCHEDULES_PER_WORKSPACE);
  const live = (await listCredentials(c.env.DB, workspaceId)).filter((row) => row.status === "ACTIVE");
  const mayRun = roleMay(role, "schedules.manage");
  return c.html(
    <Page title="수집 일정" nav={<WorkspaceNav workspaceId={workspaceId} user={user} role={role} />}>
      <Outcome shown={shown} />
      <p>일정마다 정한 시각(한국 시간)에 수집 작업을 하나씩 만듭니다. 두 실행 사이는 15분 이상이고, 자격 증명과 데이터마다 실행 중인 일정은 하나입니다. 앞선 실행이 끝나지 않았으면 그 시각은 건너뛰고, 고칠 수 없는 실패가 3번 이어지면 일시 중지합니다. 일정은 소유자(owner)만 만들고 바꿉니다.</p>
      {mayRun && (
        <>
          <h2>새 일정</h2>
          <form method="post" action={base}>
            <CsrfField token={user.csrf} />
            <TargetFields credentials={live} defaultCredential="실행할 때의 기본 자격 증명" />
            <p id="simple-auth-hint" class="notice" role="status" hidden>
              이 자격 증명은 실행할 때마다 휴대폰 승인이 필요합니다. 사람이 응답할 수 있는 시각을 고르세요 (승인 요청은 약 5분 뒤 끝나고, 그때까지 승인이 없으면 그 실행은 LOGIN_SECOND_FACTOR_REQUIRED로 실패합니다).
            </p>
            <label for="cron">실행 시각 (cron 다섯 필드: 분 시 일 월 요일, 한국 시간)</label>
            <input id="cron" name="cron" required maxlength={100} placeholder="0 3 * * * (매일 03:00)" />
            <label for="lastDays">수집 기간: 실행일까지 며칠 (기간이 있는 데이터만)</label>
            <input id="lastDays" name="lastDays" type="number" min={1} max={366} />
            <label for="incremental" style="font-weight:normal">
              <input id="incremental" name="incremental" type="checkbox" value="1" style="width:auto" /> 바뀐 것만: 성공한 실행 다음부터는 그 뒤로 바뀐 레코드만 받습니다
            </label>
            <button type="submit">일정 만들기</button>
          </form>
          <script nonce={c.get("cspNonce")}>{raw(SIMPLE_AUTH_HINT_SCRIPT)}</script>
        </>
      )}
      <h2>일정 목록</h2>
      <DataTable columns={["기관 · 데이터", "실행 시각", "상태", "다음 실행", "연속 실패 · 건너뜀", ...(mayRun ? [{ hidden: "관리" }] : [])]}>
        {rows.map((row) => (
          <tr data-schedule-id={row.id}>
            <td>
              <a href={`${base}/${row.id}`}>
                {providerName(row.providerCode)} · {findSchema(row.schema)?.title ?? row.schema}
              </a>
              {row.lastDays !== null && ` (${row.lastDays}일${row.incremental ? ", 바뀐 것만" : ""})`}
            </td>
            <td>
              <code>{row.cron}</code>
            </td>
            <td data-status={row.status}>
              {STATUS[row.status]}
              {row.pausedReason && <p data-paused-reason>{row.pausedReason}</p>}
            </td>
            <td>{row.nextRunAt === null ? "-" : kst(row.nextRunAt)}</td>
            <td>
              {row.consecutiveFailures} · {row.skippedRuns}
              {row.lastSkippedFor !== null && ` (마지막 ${kst(row.lastSkippedFor)})`}
            </td>
            {mayRun && (
              <td>
                <form method="post" action={`${base}/${row.id}/${row.status === "ACTIVE" ? "pause" : "resume"}`}>
                  <CsrfField token={user.csrf} />
                  <button type="submit">{row.status === "ACTIVE" ? "일시 중지" : "다시 실행"}</button>
                </form>
                <DeleteForm action={`${base}/${row.id}/delete`} csrf={user.csrf} label={`${row.cron} 일정 삭제`} />
              </td>
            )}
          </tr>
        ))}
      </DataTable>
      {rows.length === 0 && <p>일정이 없습니다.</p>}
    </Page>,
    shown.error ? (shown.error.status as 400) : (shown.status ?? 200),
  );
}

export const showSchedules = (c: ConsoleContext<"workspaceId">) => schedulesPage(c);

/** One schedule and its latest runs, each a job with its own page. */
export async function showScheduleRuns(c: ConsoleContext<"workspaceId" | "scheduleId">): Promise<Response> {
  const user = consoleUserOf(c);
  const workspaceId = c.req.valid("param").workspaceId;
  const schedule = await ownSchedule(c.env, workspaceId, c.req.valid("param").scheduleId);
  const runs = await scheduleRuns(c.env.DB, schedule.id, RUNS_SHOWN);
  const jobs = `/console/w/${workspaceId}/jobs`;
  return c.html(
    <Page title="일정 실행 기록" nav={<WorkspaceNav workspaceId={workspaceId} user={user} role={workspaceRoleOf(c)} />}>
      <p>
        {providerName(schedule.providerCode)} · {findSchema(schedule.schema)?.title ?? schedule.schema} · <code>{schedule.cron}</code> (한국 시간) ·{" "}
        <span data-status={schedule.status}>{STATUS[schedule.status]}</span>
      </p>
      <DataTable columns={["실행 시각", "작업", "상태"]}>
        {runs.map((job) => (
          <tr data-job-id={job.id}>
            <td>{kst(job.scheduledFor!)}</td>
            <td>
              <a href={`${jobs}/${job.id}`}>{job.id.slice(0, 8)}</a>
            </td>
            <td>
              <JobStatusCell job={job} pollUrl={`${jobs}/${job.id}/status.json`} />
            </td>
          </tr>
        ))}
      </DataTable>
      {runs.length === 0 && <p>아직 실행이 없습니다. 다음 실행: {schedule.nextRunAt === null ? "-" : kst(schedule.nextRunAt)}</p>}
      <p>
        <a href={`/console/w/${workspaceId}/schedules`}>일정 목록으로</a>
      </p>
      <script nonce={c.get("cspNonce")}>{raw(LIVE_PROGRESS_SCRIPT)}</script>
    </Page>,
  );
}

/** The form read as the API's create request and checked by the same schema, so both refuse alike. */
function scheduleRequest(fields: Record<string, string>) {
  const body = {
    ...parseTarget(fields.target),
    cron: fields.cron ?? "",
    ...(fields.credentialId ? { credentialId: fields.credentialId } : {}),
    ...(fields.lastDays ? { lastDays: Number(fields.lastDays) } : {}),
    ...(fields.incremental === "1" ? { incremental: true } : {}),
  };
  return asApiBody(CreateScheduleBodySchema, body);
}

export async function createScheduleForm(c: ConsoleContext<"workspaceId">): Promise<Response> {
  const fields = await verifiedForm(c, consoleUserOf(c).sessionToken);
  return onPage(
    c,
    schedulesPage,
    async () => {
      const row = await createSchedule(c.env, c.req.valid("param").workspaceId, scheduleRequest(fields));
      return `일정을 만들었습니다. 첫 실행: ${kst(row.nextRunAt!)}`;
    },
    201,
  );
}

const ACTIONS = {
  pause: { act: pauseSchedule, done: "일정을 일시 중지했습니다. 이미 만든 작업은 계속됩니다." },
  resume: { act: resumeSchedule, done: "일정을 다시 실행합니다. 멈춘 동안의 실행 시각은 건너뜁니다." },
  delete: { act: removeSchedule, done: "일정을 지웠습니다. 이 일정이 만든 작업은 남습니다." },
} as const;

/** Pause, resume or delete one of the workspace's schedules. */
export async function scheduleActionForm(c: ConsoleContext<"workspaceId" | "scheduleId" | "action">): Promise<Response> {
  await verifiedForm(c, consoleUserOf(c).sessionToken);
  const action = ACTIONS[c.req.valid("param").action as keyof typeof ACTIONS];
  if (!action) return c.notFound();
  return onPage(c, schedulesPage, async () => {
    await action.act(c.env, c.req.valid("param").workspaceId, c.req.valid("param").scheduleId);
    return action.done;
  });
}
