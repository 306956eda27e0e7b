import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { accountsOf } from "../../../../sandbox/sandbox-bank/ledger";
import { fileReport, purgeExpiredReports, REPORT_RETENTION_MS } from "../../../../worker/domain/reports/store";
import { callJson } from "../../../support/workers/helpers";
import { act, auditOf, newOperator, signedIn } from "../../../support/workers/operator-helpers";
import { ConsoleBrowser } from "../../../support/workers/console-browser";
import { harness, jobRow, newJob } from "../../../support/workers/pipeline-harness";

type Json = Record<string, any>;
const STEP = "collect bank.transactions.cb.v1";

/** The open reports of the bank's transactions step (the test files sharing this database may have filed one before). */
const openReports = async (token: string) =>
  ((await act(token, "/reports")).body.items as Json[]).filter((r) => r.providerCode === "sandbox.bank" && r.step === STEP && r.closedAt === null);

describe("scraper failure reports", () => {
  it("keep one redacted report of a page changed under a running job, raise one alert, and let an operator read and close it", async () => {
    const support = await signedIn("support");
    for (const stale of await openReports(support.token)) await act(support.token, `/reports/${stale.id}/close`, { fixRef: "earlier test", reason: "다른 테스트가 남긴 보고서 정리" });

    const login = { loginId: `changed_${crypto.randomUUID().slice(0, 8)}`, password: "pass_good" };
    const [account] = accountsOf(login.loginId);
    const { job, plan } = await newJob({ dateRangeStart: "2026-02-01", dateRangeEnd: "2026-02-10", accountNumber: [account!.accountNumber] }, "bank.transactions.cb.v1", login);
    // The bank redesigns its transaction page for this customer before the job gets there.
    await fetch(`${env.SANDBOX_BASE_URL}/bank/sandbox/page-changes?loginId=${login.loginId}`, { method: "PUT", body: JSON.stringify({ change: "transactions-redesign" }) });
    const h = harness();
    await h.settle(plan);
    await h.settleAll();

    const row = await jobRow(job.id);
    expect(row!.status).toBe("FAILED");
    expect(JSON.parse(row!.error)).toMatchObject({ code: "PROVIDER_RESPONSE_MALFORMED", category: "TRANSIENT" });
    // Every attempt (the first and each retry) met the same page: one report, each attempt counted on it.
    const [report, ...more] = await openReports(support.token);
    expect(more).toEqual([]);
    expect(report).toMatchObject({ surprise: "SCRAPING_RESPONSE_MALFORMED", adapterVersion: "sandbox-bank/2026-11-26", jobId: job.id, occurrences: 1 + h.deps.retry.maxAttempts });
    const alerts = ((await act(support.token, "/alerts")).body.items as Json[]).filter((a) => a.code === "SCRAPING_RESPONSE_MALFORMED" && a.providerCode === "sandbox.bank" && a.resolvedAt === null);
    expect(alerts).toHaveLength(1);

    const read = await act(support.token, `/reports/${report!.id}`);
    expect(read.body.page.html).toContain("tx-memo");
    expect(read.body.page.html).not.toContain(account!.accountNumberFormatted);
    expect(read.body.page.screenshot).toMatch(/^\/9j\//);
    expect((await auditOf(support.token, report!.id)).map((l) => l.action)).toEqual(["report.view"]);
    // The list is a read too: each one an audit line naming the reports it showed, whoever looked.
    const lines = (await act(support.token, `/audit?operatorId=${support.id}`)).body.items as Json[];
    const listed = lines.filter((l) => l.action === "report.list");
    expect(listed.length).toBeGreaterThanOrEqual(2);
    expect(listed[0]).toMatchObject({ targetKind: "report", targetId: "latest", reason: null, detail: { shown: expect.arrayContaining([report!.id]) } });

    const viewer = await signedIn("viewer");
    expect((await act(viewer.token, `/reports/${report!.id}/close`, { fixRef: "x", reason: "보기만 하는 역할" })).body.code).toBe("ADMIN_ACTION_FORBIDDEN");
    const closed = await act(support.token, `/reports/${report!.id}/close`, { fixRef: "https://git.example/collect-edge/pull/412", reason: "거래내역 표 새 구조 반영" });
    expect(closed.body).toMatchObject({ closedAt: expect.any(String), fixRef: "https://git.example/collect-edge/pull/412" });
    expect((await act(support.token, `/reports/${report!.id}/close`, { fixRef: "again", reason: "두 번째 닫기" })).body.code).toBe("AGENT_BUG_REPORT_NOT_FOUND");
    const unknown = await act(support.token, `/reports/${crypto.randomUUID()}`);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ code: "AGENT_BUG_REPORT_NOT_FOUND", message: "버그 리포트를 찾을 수 없습니다." });

    // Past its retention the page and the row are gone.
    const pageKey = (await env.DB.prepare("SELECT page_key AS k FROM failure_reports WHERE id = ?").bind(report!.id).first<{ k: string }>())!.k;
    expect(await env.RESULTS.head(pageKey)).not.toBeNull();
    expect(await purgeExpiredReports(env, 100, Date.parse(report!.createdAt) + REPORT_RETENTION_MS + 1)).toBeGreaterThanOrEqual(1);
    expect(await env.RESULTS.head(pageKey)).toBeNull();
    expect((await callJson<Json>(`/admin/api/reports/${report!.id}`, { key: support.token })).body.code).toBe("AGENT_BUG_REPORT_NOT_FOUND");
  });

  it("write an audit line for every read in the /admin console too: the list and a report's page", async () => {
    // A report of this test's own, from a scraper that still sent the page's query and fragment: filed without them.
    const step = `collect audit-${crypto.randomUUID().slice(0, 8)}`;
    const id = await fileReport(env, "sandbox.card", { requestId: "req-audit" }, {
      surprise: "SCRAPING_PARSER_NOT_FOUND",
      step,
      adapterVersion: "sandbox-card/test",
      detail: "unknown page",
      url: "https://card.example/cards/list?holder=%EA%B9%80%ED%95%98%EB%8A%98&card=9410-1234-5678-9012#top",
      html: "<p>○○○ 고객님</p>",
      screenshot: null,
    });
    const viewer = await newOperator("viewer");
    const browser = new ConsoleBrowser();
    await browser.open("/admin/sign-in");
    expect((await browser.post("/admin/sign-in", { email: viewer.email, password: viewer.password, code: viewer.app.generate() })).status).toBe(303);
    const list = await browser.open("/admin/reports");
    expect(list.status).toBe(200);
    const shown = [...list.html.matchAll(/data-report="([^"]+)"/g)].map((m) => m[1]!);
    const reader = await signedIn("viewer");
    const linesOf = async () => ((await act(reader.token, `/audit?operatorId=${viewer.id}`)).body.items as Json[]).map((l) => ({ action: l.action, targetId: l.targetId, shown: l.detail?.shown }));
    expect(await linesOf()).toEqual([
      { action: "report.list", targetId: "latest", shown },
      { action: "operator.sign-in", targetId: viewer.id, shown: undefined },
    ]);
    expect(shown).toContain(id);
    const page = await browser.open(`/admin/reports/${id}`);
    expect(page.status).toBe(200);
    expect(page.html).toContain("https://card.example/cards/list<");
    expect(page.html).not.toContain("holder=");
    expect((await linesOf())[0]).toEqual({ action: "report.view", targetId: id, shown: undefined });
  });
});
