import { env } from "cloudflare:workers";
import { invalidateCredential } from "../../../worker/domain/credentials/job-credential";
import { describe, expect, it } from "vitest";
import { issueApiKey } from "../../../worker/domain/api-keys/store";
import { runDue } from "../../../worker/domain/schedule-runs/run";
import { bankTransaction, callJson, jobInWorkspace, withCapturedQueue } from "../../support/workers/helpers";
import { issueJointCertificate } from "../../../sandbox/certificates/issue";
import { addMember } from "../../../worker/domain/users/members";
import { findUserByEmail } from "../../../worker/domain/users/store";
import { kst } from "../../../worker/web/kst";
import { publishJob } from "../../../worker/domain/jobs/board";
import { findJobById } from "../../../worker/domain/jobs/store";
import { finishedJob, jobRowOf, storedObjects } from "../../support/workers/results-retention-helpers";

const DAY = 86_400_000;
import { alertCode, ConsoleBrowser } from "../../support/workers/console-browser";

type Json = Record<string, any>;

describe("jobs in the console", () => {
  it("refreshes through createJob: without a credential the job fails CREDENTIAL_NOT_FOUND, and its page shows the Korean message and next action", async () => {
    const browser = new ConsoleBrowser();
    const { workspaceId } = await browser.signUp();
    const list = await browser.open(`/console/w/${workspaceId}/jobs`);
    expect(list.status).toBe(200);
    expect(list.html).toContain('value="sandbox.bank|bank.accounts.cb.v1"');
    const created = await browser.post(`/console/w/${workspaceId}/jobs`, { target: "sandbox.bank|bank.accounts.cb.v1" });
    expect(created.status).toBe(303);
    const jobId = /\/jobs\/([0-9a-f-]{36})$/.exec(created.location!)![1]!;

    const page = await browser.open(created.location!);
    expect(page.status).toBe(200);
    expect(alertCode(page.html)).toBe("CREDENTIAL_NOT_FOUND");
    expect(page.html).toContain("자격 증명을 다시 등록해 주세요");
    // Nothing a retry would mend: the page says what to fix first, and where.
    expect(page.html).toContain("먼저 고칠 것");
    expect(page.html).toContain(`<a id="fix-link" href="/console/w/${workspaceId}/credentials">`);

    const status = await browser.open(`/console/w/${workspaceId}/jobs/${jobId}/status.json`);
    expect((JSON.parse(status.html) as Json).kind).toBe("Failed");
    const csv = await browser.open(`/console/w/${workspaceId}/jobs/${jobId}/results.csv`);
    expect(csv.status).toBe(200);
    expect(csv.response.headers.get("Content-Type")).toBe("text/csv;charset=UTF-8");

    const failedOnly = await browser.open(`/console/w/${workspaceId}/jobs?status=FAILED`);
    expect(failedOnly.html).toContain(`data-job-id="${jobId}"`);
    const succeededOnly = await browser.open(`/console/w/${workspaceId}/jobs?status=SUCCEEDED`);
    expect(succeededOnly.html).not.toContain(`data-job-id="${jobId}"`);
  });

  it("lists when each job was asked for and when it ended, and a failure in Korean with its next step rather than its code", async () => {
    const browser = new ConsoleBrowser();
    const { workspaceId } = await browser.signUp();
    await browser.open(`/console/w/${workspaceId}/jobs`);
    const created = await browser.post(`/console/w/${workspaceId}/jobs`, { target: "sandbox.bank|bank.accounts.cb.v1" });
    const jobId = /\/jobs\/([0-9a-f-]{36})$/.exec(created.location!)![1]!;
    const row = (await jobRowOf(jobId))!;
    const list = await browser.open(`/console/w/${workspaceId}/jobs`);
    const cells = new RegExp(`<tr data-job-id="${jobId}">([\\s\\S]*?)</tr>`).exec(list.html)![1]!;
    expect(cells).toContain(kst(row.created_at));
    expect(cells).toContain(kst(row.finished_at));
    expect(cells).toContain("이 기관에 등록된 자격 증명이 없거나 삭제되었습니다");
    expect(cells).toContain("다음 할 일: 이 기관의 자격 증명을 등록한 뒤 새로 수집해 주세요.");
    expect(cells).not.toContain(">실패 · CREDENTIAL_NOT_FOUND<");
  });

  it("shows a job's course on its page from what is recorded: asked for, each unit committed and still to come, the turn it waits for, its resumptions", async () => {
    const browser = new ConsoleBrowser();
    const { workspaceId } = await browser.signUp();
    const jobId = await jobInWorkspace(workspaceId, [[bankTransaction("a", "급여", 10)], [bankTransaction("b", "이체", -5), bankTransaction("c", null, 1)], [bankTransaction("d", null, 2)]], [0, 1]);
    // Waiting its turn behind two others after one automatic resumption, written and published as the pipeline does.
    await env.DB.prepare("UPDATE jobs SET queue_position = 2, attempt = 1 WHERE id = ?").bind(jobId).run();
    await publishJob(env as Env, (await findJobById(env.DB, jobId))!);
    const row = (await jobRowOf(jobId))!;
    const page = await browser.open(`/console/w/${workspaceId}/jobs/${jobId}`);
    const steps = [...page.html.matchAll(/<li data-step="([a-z-]+)">([\s\S]*?)<\/li>/g)].map((m) => [m[1], m[2]!.replace(/<[^>]+>/g, "")]);
    expect(steps.map(([kind]) => kind)).toEqual(["queued", "unit-done", "unit-done", "wait", "retry", "unit-queued"]);
    expect(steps[0]![1]).toContain(kst(row.created_at));
    expect(steps[2]![1]).toMatch(/단위 2 .*수집 완료 · 2건/);
    expect(steps[3]![1]).toContain("앞에 2건");
    expect(steps[4]![1]).toContain("1번");
    expect(steps[5]![1]).toContain("단위 3");
  });

  it("answers a refresh with bad input on the page with the API's code", async () => {
    const browser = new ConsoleBrowser();
    const { workspaceId } = await browser.signUp();
    await browser.open(`/console/w/${workspaceId}/jobs`);
    const res = await browser.post(`/console/w/${workspaceId}/jobs`, { target: "sandbox.bank|bank.transactions.cb.v1", dateRangeStart: "2026-03-01", dateRangeEnd: "2026-01-01" });
    expect(res.status).toBe(400);
    expect(alertCode(res.html)).toBe("DATE_RANGE_INVALID");
  });

  it("refreshes with the credential picked on the form, and says so when it is another provider's", async () => {
    const browser = new ConsoleBrowser();
    const { workspaceId } = await browser.signUp();
    const key = await issueApiKey(env.DB, { workspaceId, name: "test", canManageKeys: true });
    const register = async (loginId: string) =>
      (await callJson<Json>("/api/v1/credentials", { method: "POST", key: key.secret, json: { providerCode: "sandbox.bank", authMethod: "PROVIDER_LOGIN", fields: { loginId, password: "pass_good" }, label: loginId } })).body;
    await register("user_good");
    const second = await register("user_second");
    const page = await browser.open(`/console/w/${workspaceId}/jobs`);
    expect(page.html).toContain(`<option value="${second.id}" data-auth-method="PROVIDER_LOGIN">user_second`);
    const created = await browser.post(`/console/w/${workspaceId}/jobs`, { target: "sandbox.bank|bank.accounts.cb.v1", credentialId: second.id });
    expect(created.status).toBe(303);
    const jobId = created.location!.split("/").at(-1)!;
    expect((await env.DB.prepare("SELECT credential_id AS c FROM jobs WHERE id = ?").bind(jobId).first<{ c: string }>())!.c).toBe(second.id);
    const elsewhere = await browser.post(`/console/w/${workspaceId}/jobs`, { target: "sandbox.card|card.cards.corp.v1", credentialId: second.id });
    expect([elsewhere.status, alertCode(elsewhere.html)]).toEqual([400, "PROVIDER_CODE_MISMATCH"]);
  });

  it("keeps one workspace's jobs from another's members", async () => {
    const owner = new ConsoleBrowser();
    const { workspaceId } = await owner.signUp();
    await owner.open(`/console/w/${workspaceId}/jobs`);
    const created = await owner.post(`/console/w/${workspaceId}/jobs`, { target: "sandbox.bank|bank.accounts.cb.v1" });
    const jobId = /\/jobs\/([0-9a-f-]{36})$/.exec(created.location!)![1]!;

    const stranger = new ConsoleBrowser();
    const own = await stranger.signUp();
    for (const path of [`/console/w/${workspaceId}/jobs/${jobId}`, `/console/w/${workspaceId}/jobs/${jobId}/results.csv`]) {
      const res = await stranger.open(path);
      expect([path, res.status, alertCode(res.html)]).toEqual([path, 403, "WORKSPACE_ACCESS_DENIED"]);
      expect(res.html, path).toContain("이 워크스페이스의 구성원이 아닙니다");
    }
    // Through their own workspace's path the job is simply not there: the page's poll, which asks for JSON, gets the envelope.
    const res = await stranger.request(`/console/w/${own.workspaceId}/jobs/${jobId}/status.json`, { headers: { Accept: "application/json" } });
    expect(res.status).toBe(404);
    expect(((await res.json()) as Json).code).toBe("DATA_JOB_NOT_FOUND");
  });
});

describe("a stale link in the console", () => {
  it("answers a job, schedule, route, endpoint or invoice that is not there or is another workspace's, and a path no page has, with a 404 page in the console's layout and a way back to its list; the API and the page's poll keep the envelope", async () => {
    const owner = new ConsoleBrowser();
    const theirs = await owner.signUp();
    await owner.open(`/console/w/${theirs.workspaceId}/jobs`);
    const created = await owner.post(`/console/w/${theirs.workspaceId}/jobs`, { target: "sandbox.bank|bank.accounts.cb.v1" });
    const theirJob = /\/jobs\/([0-9a-f-]{36})$/.exec(created.location!)![1]!;

    const person = new ConsoleBrowser();
    const base = `/console/w/${(await person.signUp()).workspaceId}`;
    const gone = crypto.randomUUID();
    const links: [path: string, back: string, code: string][] = [
      [`${base}/jobs/${theirJob}`, `${base}/jobs`, "DATA_JOB_NOT_FOUND"],
      [`${base}/jobs/${gone}/results.csv`, `${base}/jobs`, "DATA_JOB_NOT_FOUND"],
      [`${base}/schedules/${gone}`, `${base}/schedules`, "RESOURCE_NOT_FOUND"],
      [`${base}/delivery-routes/${gone}`, `${base}/delivery-routes`, "RESOURCE_NOT_FOUND"],
      [`${base}/webhooks/${gone}`, `${base}/webhooks`, "RESOURCE_NOT_FOUND"],
      [`${base}/billing/invoices/${gone}`, `${base}/billing`, "INVOICE_NOT_FOUND"],
      [`${base}/jobs/${gone}/no-such-page`, `${base}/jobs`, "RESOURCE_NOT_FOUND"],
      // A link made to inject markup: the page says what the catalog says, never what the path says.
      [`${base}/jobs/${encodeURIComponent('"><img src=x onerror=alert(1)>')}`, `${base}/jobs`, "DATA_JOB_NOT_FOUND"],
    ];
    for (const [path, back, code] of links) {
      const page = await person.open(path);
      expect([path, page.status, page.response.headers.get("Content-Type")]).toEqual([path, 404, "text/html; charset=UTF-8"]);
      expect(page.html, path).toMatch(new RegExp(`<p id="not-found" data-code="${code}">[^<]*(찾을 수 없습니다|페이지가 없습니다)`));
      expect(page.html, path).toContain(`<a href="${back}">`);
      // The console's own page: its menu, its headers.
      expect(page.html, path).toContain('aria-label="콘솔 메뉴"');
      expect(page.html, path).not.toContain("onerror");
      expect(page.response.headers.get("Content-Security-Policy"), path).toContain("frame-ancestors 'none'");
    }
    // Outside a workspace, the way back is the person's workspaces.
    const nowhere = await person.open("/console/no-such-page");
    expect([nowhere.status, alertCode(nowhere.html)]).toEqual([404, "RESOURCE_NOT_FOUND"]);
    expect(nowhere.html).toContain('<a href="/console/workspaces">');

    // The page's poll asks for JSON and keeps the envelope; the API answers the same job with its own, as ever.
    const poll = await person.request(`${base}/jobs/${theirJob}/status.json`, { headers: { Accept: "application/json" } });
    expect([poll.status, ((await poll.json()) as Json).code]).toEqual([404, "DATA_JOB_NOT_FOUND"]);
    const key = await issueApiKey(env.DB, { workspaceId: base.split("/").at(-1)!, name: "stale links", canManageKeys: false });
    const api = await callJson<Json>(`/api/v1/data-jobs/${theirJob}`, { key: key.secret });
    expect([api.status, api.headers.get("Content-Type"), api.body.code]).toEqual([404, "application/json", "DATA_JOB_NOT_FOUND"]);
  });
});

describe("deleting a job's results in the console", () => {
  /** A signed-up owner's workspace with a finished job, and a key that only reads (the API's view of the results). */
  async function ownerWithJob() {
    const owner = new ConsoleBrowser();
    const { workspaceId } = await owner.signUp();
    const jobId = await finishedJob({ workspaceId });
    const reader = (await issueApiKey(env.DB, { workspaceId, name: "reader", canManageKeys: false })).secret;
    const results = (id = jobId) => callJson<Json>(`/api/v1/data-jobs/${id}/results`, { key: reader });
    const page = `/console/w/${workspaceId}/jobs/${jobId}`;
    return { owner, workspaceId, jobId, results, page, action: `${page}/delete-results` };
  }

  it("deletes a finished job's results for its owner once the box is ticked; the page says when, and the API then answers 410", async () => {
    const { owner, jobId, results, page, action } = await ownerWithJob();
    expect((await owner.open(page)).html).toContain(`action="${action}"`);
    // Not ticked, posted from another origin, or with a forged token: nothing is deleted.
    const unticked = await owner.post(action, {});
    expect([unticked.status, alertCode(unticked.html)]).toEqual([400, "MISSING_REQUIRED_PARAM"]);
    expect(unticked.html).toContain("확인란을 선택해 주세요");
    expect((await owner.post(action, { confirm: "yes" }, { Origin: "https://evil.example" })).status).toBe(400);
    expect((await owner.post(action, { confirm: "yes", _csrf: "forged-token-of-the-same-length-0" })).status).toBe(400);
    expect(await storedObjects(jobId)).toBeGreaterThan(0);
    expect((await results()).status).toBe(200);

    await owner.open(page);
    const done = await owner.post(action, { confirm: "yes" });
    expect(done.status).toBe(200);
    const deletedAt = (await jobRowOf(jobId))!.results_expire_at;
    expect(done.html).toContain(`결과 3건이 ${kst(deletedAt)}에 삭제되었습니다`);
    expect(done.html).toContain('id="results-deleted"');
    expect(done.html).not.toContain(`action="${action}"`);
    expect(await storedObjects(jobId)).toBe(0);
    const read = await results();
    expect([read.status, read.body.code]).toEqual([410, "DATA_JOB_RESULTS_DELETED"]);
    expect(read.body.message).toContain("삭제 요청에 따라");
  });

  it("offers no button on a running job, and refuses its post with 409 DATA_JOB_NOT_FINISHED", async () => {
    const { owner, workspaceId, results } = await ownerWithJob();
    const running = await jobInWorkspace(workspaceId, [[bankTransaction("x", null, 1)], [bankTransaction("y", null, 2)]], [0]);
    const page = `/console/w/${workspaceId}/jobs/${running}`;
    expect((await owner.open(page)).html).not.toContain("/delete-results");
    const refused = await owner.post(`${page}/delete-results`, { confirm: "yes" });
    expect([refused.status, alertCode(refused.html)]).toEqual([409, "DATA_JOB_NOT_FINISHED"]);
    expect((await results(running)).body.totalCount).toBe(1);
  });

  it("shows a member no button, and refuses a member's post with 403 ADMIN_ACTION_FORBIDDEN, deleting nothing", async () => {
    const { jobId, workspaceId, results, page, action } = await ownerWithJob();
    const member = new ConsoleBrowser();
    const { email } = await member.signUp();
    await addMember(env.DB, { workspaceId, userId: (await findUserByEmail(env.DB, email))!.id, role: "member" });
    const shown = await member.open(page);
    expect(shown.status).toBe(200);
    expect(shown.html).not.toContain("/delete-results");
    const refused = await member.post(action, { confirm: "yes" });
    expect([refused.status, alertCode(refused.html)]).toEqual([403, "ADMIN_ACTION_FORBIDDEN"]);
    expect(await storedObjects(jobId)).toBeGreaterThan(0);
    expect((await jobRowOf(jobId))!.results_deleted_reason).toBeNull();
    expect((await results()).status).toBe(200);
  });
});

describe("schedules in the console", () => {
  it("makes, pauses, resumes and deletes a schedule and lists its runs, refusing a bad one with the API's codes", async () => {
    const browser = new ConsoleBrowser();
    const { workspaceId } = await browser.signUp();
    const base = `/console/w/${workspaceId}/schedules`;
    const page = await browser.open(base);
    expect(page.status).toBe(200);
    expect(page.html).toContain("일정이 없습니다");
    expect((await browser.open(`/console/w/${workspaceId}/jobs`)).html).toContain(`href="${base}"`);

    const badCron = await browser.post(base, { target: "sandbox.bank|bank.transactions.cb.v1", cron: "every night", lastDays: "7" });
    expect([badCron.status, alertCode(badCron.html)]).toEqual([400, "INVALID_PARAM_FORMAT"]);
    expect(badCron.html).toContain('data-field="body.cron"');
    const tooLong = await browser.post(base, { target: "sandbox.bank|bank.transactions.cb.v1", cron: "0 3 * * *", lastDays: "9999" });
    expect(tooLong.status).toBe(400);
    expect(tooLong.html).toContain('data-field="body.lastDays"');
    const noRange = await browser.post(base, { target: "sandbox.bank|bank.transactions.cb.v1", cron: "0 3 * * *" });
    expect([noRange.status, alertCode(noRange.html)]).toEqual([400, "MISSING_REQUIRED_PARAM"]);

    const created = await browser.post(base, { target: "sandbox.bank|bank.transactions.cb.v1", cron: "0 3 * * *", lastDays: "7", incremental: "1" });
    expect(created.status).toBe(201);
    expect(created.html).toContain("일정을 만들었습니다");
    const row = (await env.DB.prepare("SELECT id, last_days AS lastDays, incremental FROM schedules WHERE workspace_id = ?").bind(workspaceId).first<Json>())!;
    expect(row).toMatchObject({ lastDays: 7, incremental: 1 });
    expect(created.html).toContain(`data-schedule-id="${row.id}"`);
    expect(created.html).toContain('data-status="ACTIVE"');

    // Its page lists its runs, each a job with its outcome: here one born Failed, as the workspace has no credential.
    expect((await browser.open(`${base}/${row.id}`)).html).toContain("아직 실행이 없습니다");
    const occurrence = Date.now() - 60_000;
    await env.DB.prepare("UPDATE schedules SET next_run_at = ? WHERE id = ?").bind(occurrence, row.id).run();
    await runDue(withCapturedQueue().env as Env, row.id, occurrence);
    const runs = await browser.open(`${base}/${row.id}`);
    const run = (await env.DB.prepare("SELECT id FROM jobs WHERE schedule_id = ?").bind(row.id).first<Json>())!;
    expect(runs.html).toContain(`data-job-id="${run.id}"`);
    expect(runs.html).toContain('data-failure-code="CREDENTIAL_NOT_FOUND"');
    expect(runs.html).toContain("자격 증명을 다시 등록해 주세요");

    const paused = await browser.post(`${base}/${row.id}/pause`, {});
    expect([paused.status, paused.html.includes('data-status="PAUSED"')]).toEqual([200, true]);
    const resumed = await browser.post(`${base}/${row.id}/resume`, {});
    expect([resumed.status, resumed.html.includes('data-status="ACTIVE"')]).toEqual([200, true]);
    const deleted = await browser.post(`${base}/${row.id}/delete`, {});
    expect(deleted.status).toBe(200);
    expect(deleted.html).not.toContain(`data-schedule-id="${row.id}"`);

    // Another workspace's member reaches neither the page nor the schedule's actions.
    const kept = await browser.post(base, { target: "sandbox.bank|bank.accounts.cb.v1", cron: "0 3 * * *" });
    const keptId = /data-schedule-id="([0-9a-f-]{36})"/.exec(kept.html)![1]!;
    const stranger = new ConsoleBrowser();
    const own = await stranger.signUp();
    expect((await stranger.open(base)).status).toBe(403);
    await stranger.open(`/console/w/${own.workspaceId}/schedules`);
    const elsewhere = await stranger.post(`/console/w/${own.workspaceId}/schedules/${keptId}/delete`, {});
    expect([elsewhere.status, alertCode(elsewhere.html)]).toEqual([404, "RESOURCE_NOT_FOUND"]);
    expect((await browser.open(base)).html).toContain(`data-schedule-id="${keptId}"`);
  });
});

describe("credentials in the console", () => {
  it("lists the workspace's credentials with method, masked login or certificate label and status, and no secret", async () => {
    const browser = new ConsoleBrowser();
    const { workspaceId } = await browser.signUp();
    const key = await issueApiKey(env.DB, { workspaceId, name: "test", canManageKeys: true });
    const created = await callJson<Json>("/api/v1/credentials", { method: "POST", key: key.secret, json: { providerCode: "sandbox.bank", authMethod: "PROVIDER_LOGIN", fields: { loginId: "user_good", password: "pass_good" } } });
    expect(created.status).toBe(201);
    const page = await browser.open(`/console/w/${workspaceId}/credentials`);
    expect(page.status).toBe(200);
    expect(page.html).toContain(`data-credential-id="${created.body.id}"`);
    expect(page.html).toContain(created.body.label);
    expect(page.html).toContain('data-status="ACTIVE"');
    expect(page.html).not.toContain("pass_good");
    expect(page.html).not.toContain("user_good");
    expect(page.html).not.toContain("다시 등록 필요");
    // Its provider's first credential is the default, and its login check, once asked for, shows beside it.
    expect(page.html).toContain('data-badge="default"');
    expect(page.html).toContain('data-check=""');
    expect((await callJson<Json>(`/api/v1/credentials/${created.body.id}/check`, { method: "POST", key: key.secret, json: {} })).status).toBe(202);
    expect((await browser.open(`/console/w/${workspaceId}/credentials`)).html).toMatch(/data-check="(CHECKING|VALID)"/);

    // A certificate ending within 30 days carries the days left.
    const ending = await issueJointCertificate({ idn: "1208800767", notAfter: new Date(Date.now() + 20 * DAY + 3_600_000) });
    const certificate = await callJson<Json>("/api/v1/credentials", {
      method: "POST",
      key: key.secret,
      json: { providerCode: "sandbox.taxportal", authMethod: "CERTIFICATE", fields: { certificate: ending.certificate, privateKey: ending.privateKey, password: ending.password } },
    });
    expect(certificate.status).toBe(201);
    const withCertificate = (await browser.open(`/console/w/${workspaceId}/credentials`)).html;
    expect(withCertificate).toMatch(/data-badge="expiring">\s*만료 21일 전/);

    // The institution refused it: the page tells the member to register it again.
    await invalidateCredential(env.DB, created.body.id, "LOGIN_FAILED", Date.now());
    expect((await browser.open(`/console/w/${workspaceId}/credentials`)).html).toContain("다시 등록 필요");

    const stranger = new ConsoleBrowser();
    await stranger.signUp();
    expect((await stranger.open(`/console/w/${workspaceId}/credentials`)).status).toBe(403);
  });
});
