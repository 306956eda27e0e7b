import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { findProvider } from "../../../worker/domain/catalog/providers";
import { createJob } from "../../../worker/domain/jobs/create";
import { pipelineDeps } from "../../../worker/domain/pipeline/deps";
import { alertCode, ConsoleBrowser } from "../../support/workers/console-browser";
import { addCredential, callJson, createWorkspace, TX_JOB, withCapturedQueue } from "../../support/workers/helpers";
import { act, auditOf, newOperator, signedIn } from "../../support/workers/operator-helpers";
import { signUp } from "../../../worker/domain/users/store";
import { jobError } from "../../../contracts/job-failures";

type Json = Record<string, any>;

describe("operator actions", () => {
  it("suspend a workspace for its very next request, its jobs and its console too, restore it, and log both with their reasons", async () => {
    const ws = await createWorkspace();
    // The key's gate has read the workspace and caches it: the suspension must not wait for that cache.
    expect((await callJson("/api/v1/data-jobs", { key: ws.apiKey })).status).toBe(200);
    const operator = await signedIn("support");

    const suspended = await act(operator.token, `/workspaces/${ws.workspaceId}/suspend`, { reason: "결제 분쟁 확인 중 (티켓 4411)" });
    expect(suspended.status).toBe(200);
    expect(suspended.body.suspendedAt).toEqual(expect.any(String));
    const refused = await callJson<Json>("/api/v1/data-jobs", { key: ws.apiKey });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: "WORKSPACE_ACCESS_DENIED", message: expect.stringContaining("정지") });
    await expect(createJob(withCapturedQueue().env, ws.workspaceId, TX_JOB)).rejects.toMatchObject({ code: "WORKSPACE_ACCESS_DENIED" });

    const restored = await act(operator.token, `/workspaces/${ws.workspaceId}/restore`, { reason: "결제 확인됨 (티켓 4411)" });
    expect(restored.body.suspendedAt).toBeNull();
    expect((await callJson("/api/v1/data-jobs", { key: ws.apiKey })).status).toBe(200);

    const lines = await auditOf(operator.token, ws.workspaceId);
    expect(lines.map((l) => [l.action, l.reason, l.operatorEmail])).toEqual([
      ["workspace.restore", "결제 확인됨 (티켓 4411)", operator.email],
      ["workspace.suspend", "결제 분쟁 확인 중 (티켓 4411)", operator.email],
    ]);
  });

  it("are refused ADMIN_ACTION_FORBIDDEN beyond the role, and a change without a reason is refused before anything is written", async () => {
    const ws = await createWorkspace();
    const viewer = await signedIn("viewer");
    const support = await signedIn("support");
    const forbidden = await act(viewer.token, `/workspaces/${ws.workspaceId}/suspend`, { reason: "보기만 하는 역할의 시도" });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.code).toBe("ADMIN_ACTION_FORBIDDEN");
    const plan = await callJson<Json>(`/admin/api/workspaces/${ws.workspaceId}/plan`, { method: "PUT", key: support.token, json: { plan: "INTERNAL", reason: "내부 시험용" } });
    expect(plan.body.code).toBe("ADMIN_ACTION_FORBIDDEN");
    const noReason = await act(support.token, `/workspaces/${ws.workspaceId}/suspend`, { reason: " " });
    expect(noReason.status).toBe(400);
    expect(noReason.body.fieldErrors).toEqual([expect.objectContaining({ field: "body.reason" })]);

    const detail = await act(support.token, `/workspaces/${ws.workspaceId}`);
    expect(detail.body.workspace).toMatchObject({ plan: "FREE", suspendedAt: null });
    expect((await auditOf(support.token, ws.workspaceId)).map((l) => l.action)).toEqual(["workspace.view"]);
  });

  it("do not happen when their audit line cannot be written: ADMIN_ACTION_NOT_MARKED", async () => {
    const ws = await createWorkspace();
    const operator = await signedIn("support");
    // A real failing write, as a full or read-only database gives one: the insert itself is refused.
    await env.DB.exec("CREATE TRIGGER audit_write_fails BEFORE INSERT ON operator_audit BEGIN SELECT RAISE(ABORT, 'disk I/O error'); END");
    try {
      const failed = await act(operator.token, `/workspaces/${ws.workspaceId}/suspend`, { reason: "감사 기록이 실패하는 경우" });
      expect(failed.status).toBe(500);
      expect(failed.body.code).toBe("ADMIN_ACTION_NOT_MARKED");
      expect((await act(operator.token, `/workspaces/${ws.workspaceId}`)).body.code).toBe("ADMIN_ACTION_NOT_MARKED");
    } finally {
      await env.DB.exec("DROP TRIGGER audit_write_fails");
    }
    expect((await callJson("/api/v1/data-jobs", { key: ws.apiKey })).status).toBe(200);
    expect((await act(operator.token, `/workspaces/${ws.workspaceId}`)).body.workspace.suspendedAt).toBeNull();
    // The code is flagged for operators (one occurrence opens its alert): the answer counted toward it after it left.
    await expect.poll(async () => (await act(operator.token, "/alerts")).body.items, { timeout: 10_000 }).toContainEqual(
      expect.objectContaining({ code: "ADMIN_ACTION_NOT_MARKED", providerCode: "-", resolvedAt: null, example: expect.stringMatching(/^req_/) }),
    );
  });

  it("leave lines nobody can rewrite or remove, not even our own SQL", async () => {
    const operator = await signedIn("viewer");
    await act(operator.token, "/search?q=anything");
    await expect(env.DB.prepare("UPDATE operator_audit SET reason = 'rewritten' WHERE operator_id = ?").bind(operator.id).run()).rejects.toThrow(/append-only/);
    await expect(env.DB.prepare("DELETE FROM operator_audit WHERE operator_id = ?").bind(operator.id).run()).rejects.toThrow(/append-only/);
    expect(await auditOf(operator.token, "anything")).toEqual([expect.objectContaining({ action: "search", operatorId: operator.id, reason: null })]);
  });

  it("find a workspace by business number and a job or credential by id, show no secret, and log who looked", async () => {
    const businessNumber = String(3_000_000_000 + Math.floor(Math.random() * 999_999_999));
    const ws = await createWorkspace({ businessNumber });
    const credentialId = await addCredential(ws.workspaceId);
    const job = await createJob(withCapturedQueue().env, ws.workspaceId, TX_JOB);
    const operator = await signedIn("viewer");

    const byNumber = await act(operator.token, `/search?q=${businessNumber.slice(0, 3)}-${businessNumber.slice(3, 5)}-${businessNumber.slice(5)}`);
    expect(byNumber.body.items).toEqual([expect.objectContaining({ kind: "workspace", id: ws.workspaceId })]);
    for (const [kind, id] of [["job", job.id], ["credential", credentialId]]) {
      const found = await act(operator.token, `/search?q=${id}`);
      expect(found.body.items).toEqual([{ kind, id, workspace: expect.objectContaining({ id: ws.workspaceId, businessNumber }), ownerEmail: null }]);
    }

    const detail = await act(operator.token, `/workspaces/${ws.workspaceId}`);
    expect(detail.body.credentials).toEqual([expect.objectContaining({ id: credentialId, providerCode: "sandbox.bank", status: "ACTIVE" })]);
    expect(detail.body.recentJobs).toEqual([expect.objectContaining({ id: job.id, status: "PENDING" })]);
    const shown = JSON.stringify(detail.body);
    for (const secret of [ws.apiKey, "pass_good", "sealed", "hash"]) expect(shown).not.toContain(secret);
    expect((await auditOf(operator.token, ws.workspaceId)).map((l) => [l.action, l.operatorId])).toEqual([["workspace.view", operator.id]]);
  });

  it("find a workspace by part of its company name or its owner's e-mail, each shown with the owner's e-mail", async () => {
    const tag = crypto.randomUUID().slice(0, 8);
    const email = `owner-${tag}@acme-${tag}.co.kr`;
    const { workspaceId } = await signUp(env.DB, { email, password: `pw-${tag}-long-enough`, workspaceName: `(주)한빛${tag}상사`, businessNumber: String(5_000_000_000 + Math.floor(Math.random() * 999_999_999)) });
    // A wildcard in the term is a character, not "anything": it finds no workspace whose name lacks it.
    const wildcard = await signUp(env.DB, { email: `other-${tag}@example.co.kr`, password: `pw-${tag}-long-enough`, workspaceName: `한빛_${tag}`, businessNumber: String(5_000_000_000 + Math.floor(Math.random() * 999_999_999)) });
    const operator = await signedIn("viewer");

    for (const q of [`한빛${tag}`, email.toUpperCase(), `@acme-${tag}`]) {
      const found = await act(operator.token, `/search?q=${encodeURIComponent(q)}`);
      expect(found.body.items, q).toEqual([{ kind: "workspace", id: workspaceId, workspace: expect.objectContaining({ name: `(주)한빛${tag}상사` }), ownerEmail: email }]);
    }
    expect((await act(operator.token, `/search?q=${encodeURIComponent(`한빛_${tag}`)}`)).body.items.map((m: Json) => m.id)).toEqual([wildcard.workspaceId]);
    expect((await act(operator.token, `/search?q=${encodeURIComponent(`한빛%${tag}`)}`)).body.items).toEqual([]);
    expect((await act(operator.token, `/workspaces/${workspaceId}`)).body.ownerEmail).toBe(email);

    const browser = new ConsoleBrowser();
    const person = await newOperator("viewer");
    await browser.open("/admin/sign-in");
    await browser.post("/admin/sign-in", { email: person.email, password: person.password, code: person.app.generate() });
    const page = await browser.open(`/admin?q=${encodeURIComponent(`@acme-${tag}`)}`);
    expect(page.html).toContain(`href="/admin/workspaces/${workspaceId}"`);
    expect(page.html).toContain(`<td data-field="owner">${email}</td>`);
    expect((await browser.open(`/admin/workspaces/${workspaceId}`)).html).toContain(`<dd data-field="owner">${email}</dd>`);
  });

  it("show a failed job's id, Korean message and credential with a page of its own, and a credential its last check refused as refused, not ACTIVE", async () => {
    const ws = await createWorkspace();
    const credentialId = await addCredential(ws.workspaceId);
    const job = await createJob(withCapturedQueue().env, ws.workspaceId, TX_JOB);
    const refused = jobError("LOGIN_FAILED");
    // What the pipeline leaves when the bank refuses the login: the job failed, and the login check that followed refused too.
    await env.DB.prepare("UPDATE jobs SET status = 'FAILED', error = ?, finished_at = ? WHERE id = ?").bind(JSON.stringify(refused), Date.now(), job.id).run();
    await env.DB.prepare("UPDATE credentials SET check_state = 'INVALID', check_error = ?, checked_at = ? WHERE id = ?").bind(JSON.stringify(refused), Date.now(), credentialId).run();
    const operator = await signedIn("support");

    const detail = await act(operator.token, `/workspaces/${ws.workspaceId}`);
    expect(detail.body.credentials).toEqual([expect.objectContaining({ id: credentialId, status: "ACTIVE", refusal: { code: "LOGIN_FAILED", message: refused.message } })]);
    expect(detail.body.recentJobs).toEqual([expect.objectContaining({ id: job.id, status: "FAILED", errorCode: "LOGIN_FAILED", errorMessage: refused.message, credentialId, finishedAt: expect.any(String) })]);
    const one = await act(operator.token, `/jobs/${job.id}`);
    expect(one.body).toMatchObject({ job: { id: job.id, errorMessage: refused.message }, workspace: { id: ws.workspaceId }, credential: { id: credentialId, refusal: { code: "LOGIN_FAILED" } } });
    expect((await act(operator.token, `/jobs/${crypto.randomUUID()}`)).body.code).toBe("DATA_JOB_NOT_FOUND");
    expect((await auditOf(operator.token, job.id)).map((l) => [l.action, l.operatorId])).toEqual([["job.view", operator.id]]);

    const person = await newOperator("support");
    const browser = new ConsoleBrowser();
    await browser.open("/admin/sign-in");
    await browser.post("/admin/sign-in", { email: person.email, password: person.password, code: person.app.generate() });
    const page = (await browser.open(`/admin/workspaces/${ws.workspaceId}`)).html;
    const row = /<tr data-job="[^"]+">[\s\S]*?<\/tr>/.exec(page)![0];
    expect(row).toContain(`href="/admin/jobs/${job.id}"`);
    expect(row).toContain(refused.message);
    const credentialItem = new RegExp(`<li data-credential="${credentialId}">[\\s\\S]*?</li>`).exec(page)![0];
    expect(credentialItem).toContain(`data-status="REFUSED"`);
    expect(credentialItem).not.toContain("ACTIVE");
    const jobPage = await browser.open(`/admin/jobs/${job.id}`);
    expect(jobPage.status).toBe(200);
    expect(jobPage.html).toContain(refused.message);
    expect(jobPage.html).toMatch(new RegExp(`data-field="credential"><code>${credentialId}</code>[^]*거절됨`));
    expect(jobPage.html).toContain(`action="/admin/jobs/${job.id}/rerun"`);
    expect((await browser.open("/admin/jobs/no-such-job")).status).toBe(404);
  });

  it("re-run a failed job as a new job of the same request, and only a failed one", async () => {
    const ws = await createWorkspace();
    // No credential yet: the job is born Failed (CREDENTIAL_NOT_FOUND); the partner then registers one.
    const failed = await createJob(withCapturedQueue().env, ws.workspaceId, TX_JOB);
    expect(failed.status).toBe("FAILED");
    await addCredential(ws.workspaceId);
    const operator = await signedIn("support");

    const rerun = await act(operator.token, `/jobs/${failed.id}/rerun`, { reason: "인증정보 등록 뒤 다시 실행" });
    expect(rerun.status).toBe(201);
    expect(rerun.body.rerunOf).toMatchObject({ id: failed.id, status: "FAILED", errorCode: "CREDENTIAL_NOT_FOUND" });
    expect(rerun.body.job).toMatchObject({ workspaceId: ws.workspaceId, providerCode: TX_JOB.providerCode, schema: TX_JOB.schema, status: "PENDING" });
    const fresh = await env.DB.prepare("SELECT params, credential_id AS credentialId FROM jobs WHERE id = ?").bind(rerun.body.job.id).first<{ params: string; credentialId: string }>();
    expect(JSON.parse(fresh!.params)).toMatchObject(TX_JOB.params);
    expect(fresh!.credentialId).toEqual(expect.any(String));

    const again = await act(operator.token, `/jobs/${rerun.body.job.id}/rerun`, { reason: "실패하지 않은 작업" });
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ code: "ACTION_NOT_SUPPORTED", message: "실패(Failed)한 작업만 다시 실행할 수 있습니다." });
    expect((await auditOf(operator.token, failed.id)).map((l) => l.action)).toEqual(["job.rerun"]);
  });

  it("move a workspace to the internal plan (admins only), recording from and to", async () => {
    const ws = await createWorkspace();
    const admin = await signedIn("admin");
    const moved = await callJson<Json>(`/admin/api/workspaces/${ws.workspaceId}/plan`, { method: "PUT", key: admin.token, json: { plan: "INTERNAL", reason: "파트너 시험 워크스페이스" } });
    expect(moved.body).toMatchObject({ id: ws.workspaceId, plan: "INTERNAL" });
    expect((await auditOf(admin.token, ws.workspaceId))[0]).toMatchObject({ action: "workspace.plan", detail: { from: "FREE", to: "INTERNAL" } });
  });
});

describe("outages announced by an operator", () => {
  it("join the provider's maintenance calendar for partners and jobs at once, and leave it when withdrawn", async () => {
    const ws = await createWorkspace();
    const admin = await signedIn("admin");
    // Two days ahead, on the card issuer: the test files sharing this database run their jobs now, and the bank's calendar is another file's subject.
    const startsAt = Date.now() + 2 * 86_400_000;
    const endsAt = startsAt + 3_600_000;
    const announced = await act(admin.token, "/providers/sandbox.card/outages", {
      startsAt: new Date(startsAt).toISOString(),
      endsAt: new Date(endsAt).toISOString(),
      note: "카드사 전산 장애 (운영자 공지)",
      reason: "카드사 고객센터 공지 확인",
    });
    expect(announced.status).toBe(201);
    const card = findProvider("sandbox.card")!;
    const calendar = pipelineDeps(withCapturedQueue().env).maintenanceMet;
    try {
      const shown = (await callJson<Json>("/api/v1/providers/sandbox.card", { key: ws.apiKey })).body.maintenance;
      expect(shown).toContainEqual({ startsAt: new Date(startsAt).toISOString(), endsAt: new Date(endsAt).toISOString(), note: "카드사 전산 장애 (운영자 공지)" });
      expect(await calendar(card, startsAt + 60_000, 0)).toEqual({ startsAt, endsAt, note: "카드사 전산 장애 (운영자 공지)" });
      // A run that would still be going when it begins waits for it too.
      expect(await calendar(card, startsAt - 60_000, 120_000)).toMatchObject({ startsAt, endsAt });
      expect(await calendar(card, startsAt - 120_000, 60_000)).toBeNull();

      const wrongWay = await act(admin.token, "/providers/sandbox.card/outages", { startsAt: new Date(endsAt).toISOString(), endsAt: new Date(startsAt).toISOString(), note: "거꾸로", reason: "잘못된 입력 확인" });
      expect(wrongWay.body).toMatchObject({ code: "DATE_RANGE_INVALID", fieldErrors: [expect.objectContaining({ field: "body.endsAt" })] });
      const support = await signedIn("support");
      expect((await act(support.token, "/providers/sandbox.card/outages", { startsAt: new Date(startsAt).toISOString(), endsAt: new Date(endsAt).toISOString(), note: "x", reason: "지원 역할의 시도" })).body.code).toBe("ADMIN_ACTION_FORBIDDEN");
    } finally {
      const withdrawn = await act(admin.token, `/providers/sandbox.card/outages/${announced.body.id}/withdraw`, { reason: "카드사 복구 공지" });
      expect(withdrawn.body.withdrawnAt).toEqual(expect.any(String));
    }
    expect(await calendar(card, startsAt + 60_000, 0)).toBeNull();
    expect((await callJson<Json>("/api/v1/providers/sandbox.card", { key: ws.apiKey })).body.maintenance).not.toContainEqual(expect.objectContaining({ note: "카드사 전산 장애 (운영자 공지)" }));
    expect((await act(admin.token, `/providers/sandbox.card/outages/${announced.body.id}/withdraw`, { reason: "두 번째 철회" })).body.code).toBe("RESOURCE_NOT_FOUND");
  });
});

describe("the /admin console", () => {
  it("signs an operator in with the authenticator's code, finds a workspace by business number, suspends it with a reason and shows the line in the audit log", async () => {
    const businessNumber = String(4_000_000_000 + Math.floor(Math.random() * 999_999_999));
    const ws = await createWorkspace({ businessNumber });
    const operator = await newOperator("support");
    const browser = new ConsoleBrowser();
    expect((await browser.open("/admin")).response.headers.get("Location")).toBe("/admin/sign-in");

    await browser.open("/admin/sign-in");
    const wrong = await browser.post("/admin/sign-in", { email: operator.email, password: operator.password, code: "12345x" });
    expect(alertCode(wrong.html)).toBe("INVALID_CREDENTIALS");
    const signedIn = await browser.post("/admin/sign-in", { email: operator.email, password: operator.password, code: operator.app.generate() });
    expect(signedIn.status).toBe(303);
    expect(browser.lastSetCookies.join()).toMatch(/admin_session=ops_.*Path=\/admin.*HttpOnly.*SameSite=Strict/);

    const found = await browser.open(`/admin?q=${businessNumber}`);
    expect(found.html).toContain(`href="/admin/workspaces/${ws.workspaceId}"`);
    const page = await browser.open(`/admin/workspaces/${ws.workspaceId}`);
    expect(page.html).toContain("이용 정지");
    expect(page.html).not.toContain("요금제 바꾸기");

    const short = await browser.post(`/admin/workspaces/${ws.workspaceId}/suspend`, { reason: "짧음" });
    expect(short.status).toBe(400);
    expect(alertCode(short.html)).toBe("INVALID_PARAM_FORMAT");
    await browser.open(`/admin/workspaces/${ws.workspaceId}`);
    const suspended = await browser.post(`/admin/workspaces/${ws.workspaceId}/suspend`, { reason: "스팸 신고 확인 중 (티켓 77)" });
    expect(suspended.location).toBe(`/admin/workspaces/${ws.workspaceId}`);
    expect((await browser.open(suspended.location!)).html).toMatch(/data-field="status">정지/);
    expect((await callJson<Json>("/api/v1/data-jobs", { key: ws.apiKey })).body.code).toBe("WORKSPACE_ACCESS_DENIED");

    const audit = await browser.open(`/admin/audit?targetId=${ws.workspaceId}`);
    expect(audit.html).toContain("스팸 신고 확인 중 (티켓 77)");
    expect(audit.html).toContain(operator.email);
    expect([...audit.html.matchAll(/data-action="([a-z.-]+)"/g)].map((m) => m[1])).toEqual(["workspace.view", "workspace.suspend", "workspace.view", "workspace.view"]);

    await browser.post("/admin/sign-out", {});
    expect((await browser.open("/admin")).response.headers.get("Location")).toBe("/admin/sign-in");
  });

  it("answers a stale link (a workspace, job or report that is not there, a path no page has) with a 404 page in the operators' layout and a way back, while /admin/api keeps the envelope", async () => {
    const operator = await newOperator("support");
    const browser = new ConsoleBrowser();
    await browser.open("/admin/sign-in");
    expect((await browser.post("/admin/sign-in", { email: operator.email, password: operator.password, code: operator.app.generate() })).status).toBe(303);
    const gone = crypto.randomUUID();
    for (const [path, back, code] of [
      [`/admin/workspaces/${gone}`, "/admin", "WORKSPACE_NOT_FOUND"],
      [`/admin/jobs/${gone}`, "/admin", "DATA_JOB_NOT_FOUND"],
      [`/admin/reports/${gone}`, "/admin/reports", "AGENT_BUG_REPORT_NOT_FOUND"],
      [`/admin/no-such-page`, "/admin", "RESOURCE_NOT_FOUND"],
    ]) {
      const page = await browser.open(path!);
      expect([path, page.status, page.response.headers.get("Content-Type")]).toEqual([path, 404, "text/html; charset=UTF-8"]);
      expect(alertCode(page.html), path).toBe(code);
      expect(page.html, path).toContain(`<a href="${back}">`);
      // A page's guard is what reads the operator's session: a path no page has is shown without their menu.
      expect(page.html.includes('aria-label="운영자 메뉴"'), path).toBe(path !== "/admin/no-such-page");
    }
    // The operators' API, under the pages' own path, answers with its envelope: a row it has not, a path it has not.
    const api = await signedIn("support");
    for (const [path, code] of [
      [`/admin/api/jobs/${gone}`, "DATA_JOB_NOT_FOUND"],
      ["/admin/api/no-such-route", "RESOURCE_NOT_FOUND"],
    ]) {
      const answer = await callJson<Json>(path!, { key: api.token });
      expect([path, answer.status, answer.headers.get("Content-Type"), answer.body.code]).toEqual([path, 404, "application/json", code]);
    }
  });

  it("announces an outage from Korean local times and withdraws it, for admins only", async () => {
    const admin = await newOperator("admin");
    const browser = new ConsoleBrowser();
    await browser.open("/admin/sign-in");
    await browser.post("/admin/sign-in", { email: admin.email, password: admin.password, code: admin.app.generate() });
    await browser.open("/admin/outages");
    // Three days ahead, on the card issuer, as the API test's outage: no job of the files sharing this database meets it.
    const day = new Date(Date.now() + 3 * 86_400_000 + 9 * 3_600_000).toISOString().slice(0, 10);
    const announced = await browser.post("/admin/outages", { providerCode: "sandbox.card", startsAt: `${day}T01:00`, endsAt: `${day}T02:30`, note: "콘솔에서 등록한 점검", reason: "카드사 공지 확인" });
    expect(announced.location).toBe("/admin/outages");
    const listed = await browser.open("/admin/outages");
    const id = /data-outage="([0-9a-f-]+)"[^>]*>[^<]*콘솔에서 등록한 점검/.exec(listed.html)?.[1];
    expect(id).toBeDefined();
    const row = await env.DB.prepare("SELECT starts_at AS s, ends_at AS e FROM provider_outages WHERE id = ?").bind(id).first<{ s: number; e: number }>();
    expect(row).toEqual({ s: Date.parse(`${day}T01:00:00+09:00`), e: Date.parse(`${day}T02:30:00+09:00`) });
    await browser.post(`/admin/outages/sandbox.card/${id}/withdraw`, { reason: "카드사 공지 철회" });
    expect((await browser.open("/admin/outages")).html).not.toContain("콘솔에서 등록한 점검");
  });
});
