import { verifiedForm } from "../domain/console-sessions/csrf";
import { resultsRetention, setResultsRetention } from "../domain/workspaces/results-retention";
import { PLAN_NAMES } from "../domain/workspaces/plans";
import { type ConsoleContext, consoleUserOf, workspaceRoleOf } from "./context";
import { CsrfField, Outcome, Page } from "../web/layout";
import { type FormOutcome, onPage } from "../web/form-outcome";
import { WorkspaceNav } from "./workspace-nav";

async function retentionPage(c: ConsoleContext<"workspaceId">, shown: FormOutcome = {}) {
  const user = consoleUserOf(c);
  const workspaceId = c.req.valid("param").workspaceId;
  const retention = await resultsRetention(c.env.DB, workspaceId);
  return c.html(
    <Page title="결과 보관 기간" nav={<WorkspaceNav workspaceId={workspaceId} user={user} role={workspaceRoleOf(c)} />}>
      <Outcome shown={shown} />
      <p id="retention-now">
        끝난 작업의 결과(JSON, CSV)는 <strong>{retention.days}일</strong> 보관한 뒤 지웁니다. 작업 정보(상태, 건수, 오류)는 남습니다.{" "}
        {PLAN_NAMES[retention.plan]} 플랜의 기본값은 {retention.defaultDays}일, 최대 {retention.maxDays}일입니다.
      </p>
      <p>바꾼 기간은 이제부터 끝나는 작업에 적용됩니다. 이미 끝난 작업은 작업 화면에 보이는 보관 기한을 지킵니다.</p>
      <form method="post" action={`/console/w/${workspaceId}/results-retention`}>
        <CsrfField token={user.csrf} />
        <label for="retention-days">보관 일수 (1-{retention.maxDays}, 비우면 플랜 기본값)</label>
        <input id="retention-days" name="days" type="number" min={1} max={retention.maxDays} value={retention.chosenDays === null ? "" : String(retention.chosenDays)} />
        <button type="submit">저장</button>
      </form>
    </Page>,
    shown.error ? (shown.error.status as 400) : (shown.status ?? 200),
  );
}

export const showResultsRetention = (c: ConsoleContext<"workspaceId">) => retentionPage(c);

/**
 * The form posts the API's `days` as text: empty is the plan's default; anything but up to four digits is passed on as
 * no number, so the API's own check refuses it with the same Korean message.
 */
export async function resultsRetentionForm(c: ConsoleContext<"workspaceId">): Promise<Response> {
  const posted = ((await verifiedForm(c, consoleUserOf(c).sessionToken)).days ?? "").trim();
  const days = posted === "" ? null : /^\d{1,4}$/.test(posted) ? Number(posted) : Number.NaN;
  return onPage(c, retentionPage, async () => {
    const set = await setResultsRetention(c.env.DB, c.req.valid("param").workspaceId, days, "body.days");
    return `결과 보관 기간을 ${set.days}일로 정했습니다.`;
  });
}
