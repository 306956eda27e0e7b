import type { Context } from "hono";
import { actorOf, type AdminPageContext, type AdminPagesEnv, operatorCsrfOf, operatorOf } from "../context";
import { ApiError } from "../../platform/errors/api-error";
import { closeFailureReport, listFailureReports, readFailureReport } from "../../domain/operators/actions";
import { operatorMay } from "../../domain/operators/permissions";
import { CsrfField } from "../../web/layout";
import { kst } from "../../web/kst";
import { providerName } from "../../web/provider-name";
import { FixRefSchema } from "../api/reports/shapes";
import { actionForm, AdminPage, answerForm, ReasonField } from "./layout";

/** Pages the scrapers could not read, open ones first; the list is an audit line, as a report's page is. */
export async function showReports(c: Context<AdminPagesEnv>): Promise<Response> {
  const reports = await listFailureReports(c.env, actorOf(c));
  return c.html(
    <AdminPage c={c} title="스크래퍼 실패 보고서">
      {reports.length === 0 && <p role="status">보고서가 없습니다.</p>}
      <ul>
        {reports.map((r) => (
          <li data-report={r.id} data-state={r.closedAt ? "closed" : "open"}>
            <a href={`/admin/reports/${r.id}`}>
              {providerName(r.providerCode)} · {r.step} · {r.surprise}
            </a>{" "}
            ({r.occurrences}회, {kst(r.createdAt)}
            {r.closedAt ? `, 닫힘: ${r.fixRef}` : ""})
          </li>
        ))}
      </ul>
    </AdminPage>,
  );
}

/** One report: what the adapter met, the redacted screenshot, the redacted HTML as text (never rendered), and closing it. */
export async function showReport(c: AdminPageContext<"id">): Promise<Response> {
  const { report: r, page } = await readFailureReport(c.env, actorOf(c), c.req.valid("param").id);
  return c.html(
    <AdminPage c={c} title={`${providerName(r.providerCode)} · ${r.step}`}>
      <dl>
        <dt>종류</dt>
        <dd data-field="surprise">{r.surprise}</dd>
        <dt>어댑터 버전</dt>
        <dd>{r.adapterVersion}</dd>
        <dt>내용</dt>
        <dd>{r.detail}</dd>
        <dt>페이지 주소</dt>
        <dd>{r.url ?? "-"}</dd>
        <dt>발생</dt>
        <dd>
          {r.occurrences}회 (처음 {r.jobId ? "작업" : "요청"} <code>{r.jobId ?? r.requestId}</code>, 마지막 {kst(r.lastSeenAt)})
        </dd>
        <dt>보관</dt>
        <dd>{kst(r.expiresAt)}까지</dd>
        <dt>상태</dt>
        <dd data-field="state">{r.closedAt ? `닫힘 (${kst(r.closedAt)}): ${r.fixRef}` : "열림"}</dd>
      </dl>
      {page?.screenshot && <img alt="개인정보를 가린 페이지 화면" src={`data:image/jpeg;base64,${page.screenshot}`} style="max-width:100%;border:1px solid #555" />}
      {page?.html && (
        <details>
          <summary>개인정보를 가린 HTML</summary>
          <pre style="white-space:pre-wrap" data-field="html">
            {page.html}
          </pre>
        </details>
      )}
      {!r.closedAt && operatorMay(operatorOf(c).role, "reports.close") && (
        <form method="post" action={`/admin/reports/${r.id}/close`}>
          <CsrfField token={operatorCsrfOf(c)} />
          <label for="fixRef">고친 어댑터 변경 (커밋이나 풀 리퀘스트)</label>
          <input id="fixRef" name="fixRef" minlength={3} maxlength={300} required />
          <ReasonField id="close-reason" />
          <button type="submit">닫기</button>
        </form>
      )}
    </AdminPage>,
  );
}

export const closeReportForm = (c: AdminPageContext<"id">) =>
  answerForm(c, `/admin/reports/${c.req.valid("param").id}`, async () => {
    const { fields, reason } = await actionForm(c);
    const fixRef = FixRefSchema.safeParse(fields.fixRef ?? "");
    if (!fixRef.success) throw new ApiError("INVALID_PARAM_FORMAT", { message: "고친 어댑터 변경을 3자 이상 300자 이하로 적어 주세요." });
    await closeFailureReport(c.env, actorOf(c), c.req.valid("param").id, fixRef.data, reason);
  });
