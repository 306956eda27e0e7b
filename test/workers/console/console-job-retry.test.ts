import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { jobError } from "../../../contracts/job-failures";
import { issueApiKey } from "../../../worker/domain/api-keys/store";
import { invalidateCredential } from "../../../worker/domain/credentials/job-credential";
import { createJob } from "../../../worker/domain/jobs/create";
import { JobLifecycle } from "../../../worker/domain/jobs/lifecycle";
import { callJson, withCapturedQueue } from "../../support/workers/helpers";
import { jobRowOf } from "../../support/workers/results-retention-helpers";
import { alertCode, ConsoleBrowser } from "../../support/workers/console-browser";

type Json = Record<string, any>;

/** A signed-up workspace with two logins at the sandbox bank: the first registered is the provider's default. */
async function twoLogins() {
  const browser = new ConsoleBrowser();
  const { workspaceId } = await browser.signUp();
  const key = await issueApiKey(env.DB, { workspaceId, name: "test", canManageKeys: true });
  const register = async (loginId: string) =>
    (await callJson<Json>("/api/v1/credentials", { method: "POST", key: key.secret, json: { providerCode: "sandbox.bank", authMethod: "PROVIDER_LOGIN", fields: { loginId, password: "pass_good" }, label: loginId } })).body;
  const byDefault = await register("user_good");
  const other = await register("user_second");
  return { browser, workspaceId, byDefault, other };
}

/** A transactions job on `credentialId` that ended with `code`: its planning is captured, never run. */
async function failedJob(workspaceId: string, credentialId: string, params: Record<string, unknown>, code: string) {
  const queued = withCapturedQueue().env;
  const job = await createJob(queued, workspaceId, { providerCode: "sandbox.bank", schema: "bank.transactions.cb.v1", params, credentialId });
  await new JobLifecycle(queued).failed(job, jobError(code), Date.now());
  return job;
}

const jobsOf = async (workspaceId: string) => (await env.DB.prepare("SELECT count(*) AS n FROM jobs WHERE workspace_id = ?").bind(workspaceId).first<{ n: number }>())!.n;

describe("a failed job's page in the console", () => {
  it("retries a transient failure on the job's own credential with every param, never the provider's default", async () => {
    const { browser, workspaceId, byDefault, other } = await twoLogins();
    const params = { dateRangeStart: "2026-03-01", dateRangeEnd: "2026-03-31", accountNumber: ["110123456789"], currencyCode: "KRW" };
    const job = await failedJob(workspaceId, other.id, params, "TIMEOUT");

    const page = await browser.open(`/console/w/${workspaceId}/jobs/${job.id}`);
    expect(alertCode(page.html)).toBe("TIMEOUT");
    expect(page.html).toContain(`<form id="retry" method="post" action="/console/w/${workspaceId}/jobs/${job.id}/retry">`);
    // What the job ran with: the credential (linked to its row), the period and the times.
    expect(page.html).toContain(`<a id="job-credential-link" href="/console/w/${workspaceId}/credentials#credential-${other.id}">user_second`);
    expect(page.html).toMatch(/<dd id="job-period">2026-03-01 ~ 2026-03-31<\/dd>/);
    expect(page.html).toContain('id="job-created-at"');
    expect(page.html).toContain('id="job-finished-at"');

    const retried = await browser.post(`/console/w/${workspaceId}/jobs/${job.id}/retry`, {});
    expect(retried.status, retried.html.slice(0, 300)).toBe(303);
    const again = await jobRowOf(retried.location!.split("/").at(-1)!);
    expect(again).toMatchObject({ credential_id: other.id, provider_code: "sandbox.bank", schema: "bank.transactions.cb.v1" });
    expect(again!.credential_id).not.toBe(byDefault.id);
    expect(JSON.parse(again!.params)).toEqual(params);
  });

  it("shows what to fix first, linked to the credential, for a failure no retry mends, and refuses a retry of it", async () => {
    const { browser, workspaceId, other } = await twoLogins();
    await invalidateCredential(env.DB, other.id, "LOGIN_LOCKED", Date.now());
    const job = await failedJob(workspaceId, other.id, { dateRangeStart: "2026-03-01", dateRangeEnd: "2026-03-31" }, "LOGIN_LOCKED");

    const page = await browser.open(`/console/w/${workspaceId}/jobs/${job.id}`);
    expect(alertCode(page.html)).toBe("LOGIN_LOCKED");
    expect(page.html).not.toContain("같은 조건으로 다시 수집");
    expect(page.html).toMatch(/<p id="next-action">먼저 고칠 것: 기관 사이트나 영업점에서 계정 잠금을 먼저 해제한 뒤/);
    expect(page.html).not.toContain("자격 증명을 확인한 뒤 다시 등록하고");
    expect(page.html).toContain(`<a id="fix-link" href="/console/w/${workspaceId}/credentials#credential-${other.id}">`);
    expect(page.html).toContain("다시 등록 필요 (LOGIN_LOCKED)");
    // The link lands on the credential's row, which says why it was refused.
    const credentials = await browser.open(`/console/w/${workspaceId}/credentials`);
    expect(credentials.html).toMatch(new RegExp(`<tr id="credential-${other.id}" data-credential-id="${other.id}">.*?다시 등록 필요 \\(LOGIN_LOCKED\\)`, "s"));

    const before = await jobsOf(workspaceId);
    await browser.open(`/console/w/${workspaceId}/jobs/${job.id}`);
    const refused = await browser.post(`/console/w/${workspaceId}/jobs/${job.id}/retry`, {});
    expect([refused.status, alertCode(refused.html)]).toEqual([400, "INVALID_PARAM_FORMAT"]);
    expect(await jobsOf(workspaceId)).toBe(before);
  });
});
