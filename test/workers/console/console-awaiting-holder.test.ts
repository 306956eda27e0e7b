import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { SimpleAuthProvider } from "../../../contracts/task-unit";
import { JobLifecycle } from "../../../worker/domain/jobs/lifecycle";
import { addCredential, jobInWorkspace } from "../../support/workers/helpers";
import { ConsoleBrowser } from "../../support/workers/console-browser";

type Json = Record<string, any>;

const jobs = new JobLifecycle(env as Env);

/** The row as the executor leaves it while the job's login waits for the holder's phone, the app asked `leftMs` before `until`. */
async function setAwaiting(jobId: string, provider: SimpleAuthProvider, leftMs: number): Promise<void> {
  const now = Date.now();
  await jobs.awaitingHolder(jobId, { method: "SIMPLE_AUTH", provider, since: new Date(now - 30_000 + leftMs).toISOString(), until: new Date(now + leftMs).toISOString() });
}

describe("a job waiting for its holder's phone in the console", () => {
  it("says so on the job's page and its JSON, with the app's Korean name and the time left, marks it in the jobs list, and drops it once cleared", async () => {
    const browser = new ConsoleBrowser();
    const { workspaceId } = await browser.signUp();
    const jobId = await jobInWorkspace(workspaceId, [[], []], []);
    const base = `/console/w/${workspaceId}/jobs`;
    await setAwaiting(jobId, "kakao", 4 * 60_000 + 30_500);

    const page = await browser.open(`${base}/${jobId}`);
    expect(page.status).toBe(200);
    expect(page.html).toMatch(/휴대폰 승인 대기 중: 카카오톡 앱에서 인증 요청을 승인해 주세요 \(남은 시간 04:(30|29)\)/);
    expect(page.html).toContain('data-awaiting-holder="kakao"');
    const status = JSON.parse((await browser.open(`${base}/${jobId}/status.json`)).html) as Json;
    expect(status).toMatchObject({ kind: "InProgress", phase: "RUNNING", awaitingHolder: { method: "SIMPLE_AUTH", provider: "kakao" } });
    const list = await browser.open(base);
    const row = new RegExp(`<tr data-job-id="${jobId}">.*?</tr>`, "s").exec(list.html)![0];
    expect(row).toContain('data-awaiting-holder="kakao"');
    expect(row).toContain("카카오톡 앱에서 인증 요청을 승인해 주세요");

    // A lapsed request shows no negative time: the job fails on its own at `until`.
    await setAwaiting(jobId, "pass", -5_000);
    expect((await browser.open(`${base}/${jobId}`)).html).toContain("통신사 PASS 앱에서 인증 요청을 승인해 주세요 (남은 시간 00:00)");

    await jobs.holderApproved(jobId);
    const after = /<dd id="job-status">.*?<\/dd>/s.exec((await browser.open(`${base}/${jobId}`)).html)![0];
    expect(after).not.toContain("data-awaiting-holder");
    expect(after).toMatch(/data-progress-text[^>]*>수집 중 0\/2</);
    expect((await browser.open(base)).html).not.toContain("data-awaiting-holder");
  });
});

describe("a schedule on a 간편인증 login in the console", () => {
  it("marks the login's option on the form, whose hint says each run needs a person to approve on the phone", async () => {
    const browser = new ConsoleBrowser();
    const { workspaceId } = await browser.signUp();
    const simple = await addCredential(workspaceId, "hometax", { authMethod: "SIMPLE_AUTH", name: "홍길동", phone: "01012345678", birthDate: "19800101", provider: "kakao" });
    const bank = await addCredential(workspaceId);
    const page = await browser.open(`/console/w/${workspaceId}/schedules`);
    expect(page.status).toBe(200);
    expect(page.html).toContain(`<option value="${simple}" data-auth-method="SIMPLE_AUTH">`);
    expect(page.html).toContain(`<option value="${bank}" data-auth-method="PROVIDER_LOGIN">`);
    const hint = /<p id="simple-auth-hint"[^>]*>([^<]*)<\/p>/.exec(page.html)!;
    expect(hint[0]).toContain("hidden");
    expect(hint[1]).toContain("이 자격 증명은 실행할 때마다 휴대폰 승인이 필요합니다. 사람이 응답할 수 있는 시각을 고르세요");
  });
});
