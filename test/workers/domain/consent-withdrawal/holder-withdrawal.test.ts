import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { bankTransaction, call, callJson, createWorkspace, jobInWorkspace, onClock, receivedAtLeast, receiverHook, TX_JOB } from "../../../support/workers/helpers";
import { asPartner } from "../../../support/workers/partner-helpers";
import { BUSINESS, credentialRow, heldCredential, namedPartner, PARTNER_NAME } from "../../../support/workers/consent-helpers";
import { createManageLink } from "../../../../worker/domain/consent-withdrawal/manage-link";
import { MANAGE_LINK_MAILS_PER_DAY } from "../../../../worker/domain/consent-withdrawal/mail-link";
import { signLink } from "../../../../worker/domain/download-links/token";
import { kst } from "../../../../worker/web/kst";
import { verifyWebhook, type WebhookEvent } from "../../../../client/src/webhooks";
import { issueApiKey } from "../../../../worker/domain/api-keys/store";
import { ConsoleBrowser } from "../../../support/workers/console-browser";
import { changeSuspension } from "../../../../worker/domain/api-keys/suspension";
import { createApp } from "../../../../worker/app";

type Json = Record<string, any>;
const ORIGIN = "https://api.test";

/** A manage link the partner asks for, for its business's credential. */
async function manageLink(partner: { apiKey: string }, credentialId: string, json: Json = {}) {
  return callJson<Json>(`/api/v1/credentials/${credentialId}/manage-links`, { method: "POST", json, ...asPartner(partner.apiKey, BUSINESS) });
}

const pathOf = (url: string) => new URL(url).pathname;
const open = async (path: string, headers: Record<string, string> = {}) => {
  const res = await call(path, { headers });
  return { status: res.status, headers: res.headers, html: await res.text() };
};
const withdraw = async (path: string, form = "confirm=yes", headers: Record<string, string> = { Origin: ORIGIN, "Sec-Fetch-Site": "same-origin" }) => {
  const res = await call(path, { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded", ...headers }, body: form });
  return { status: res.status, html: await res.text() };
};
const alertCode = (html: string) => /data-code="([A-Z_]+)"/.exec(html)?.[1];

describe("a holder's manage link", () => {
  it("is issued short-lived for one credential and opens a page showing what is shared, with whom, since and until when", async () => {
    const { partner } = await namedPartner();
    const credential = await heldCredential(partner);
    const before = Date.now();
    const link = await manageLink(partner, credential.id);
    const after = Date.now();
    expect(link.status).toBe(201);
    expect(link.body).toMatchObject({ url: expect.stringMatching(/^https:\/\/api\.test\/manage\/[\w-]+\.[\w-]+\.[\w-]+$/), mailedTo: null });
    // An hour by default, to the second.
    expect(Date.parse(link.body.expiresAt)).toBeLessThanOrEqual(after + 3600_000);
    expect(Date.parse(link.body.expiresAt)).toBeGreaterThan(before + 3600_000 - 1000);

    const page = await open(pathOf(link.body.url));
    expect(page.status).toBe(200);
    expect(page.html).toContain(PARTNER_NAME);
    expect(page.html).toContain("은행 거래내역");
    expect(page.html).not.toContain("은행 계좌");
    expect(page.html).toContain(kst(Date.parse(credential.consentRecord.givenAt)));
    expect(page.html).toContain(kst(Date.parse(credential.consentRecord.expiresAt)));
    expect(page.html).toMatch(/<input type="checkbox" name="confirm" value="yes" required/);
    // The token is in the path: it is never sent to another site as a Referer, never cached, and the page is never framed.
    expect(page.headers.get("Referrer-Policy")).toBe("same-origin");
    expect(page.headers.get("Cache-Control")).toBe("no-store");
    expect(page.headers.get("Content-Security-Policy")).toContain("frame-ancestors 'none'");
    // Without the managing right, or for another workspace's credential, no link.
    const stranger = await createWorkspace();
    expect((await callJson<Json>(`/api/v1/credentials/${credential.id}/manage-links`, { method: "POST", key: stranger.apiKey, json: {} })).body.code).toBe("CREDENTIAL_NOT_FOUND");
    expect((await manageLink(partner, credential.id, { expiresInSeconds: 86_401 })).body.code).toBe("INVALID_PARAM_FORMAT");
  });

  it("withdraws in one confirmed step: the secret is erased at once, credential.revoked says why, and the link is used up", async () => {
    const { partner, business } = await namedPartner();
    const hook = receiverHook();
    const endpoint = await callJson<Json>("/api/v1/webhook-endpoints", { method: "POST", key: partner.apiKey, json: { url: hook.url, events: ["credential.revoked"] } });
    const credential = await heldCredential(partner);
    const path = pathOf((await manageLink(partner, credential.id)).body.url);

    // Not confirmed, or posted from another site: nothing happens.
    const unconfirmed = await withdraw(path, "");
    expect([unconfirmed.status, alertCode(unconfirmed.html)]).toEqual([400, "MISSING_REQUIRED_PARAM"]);
    const crossSite = await withdraw(path, "confirm=yes", { Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site" });
    expect([crossSite.status, alertCode(crossSite.html)]).toEqual([400, "MALFORMED_REQUEST"]);
    expect((await credentialRow(credential.id))!.status).toBe("ACTIVE");

    const done = await withdraw(path);
    expect(done.status).toBe(200);
    expect(done.html).toContain('id="withdrawn"');
    const row = (await credentialRow(credential.id))!;
    expect(row).toMatchObject({ status: "DELETED", sealed: null, identity: null, revoked_reason: "HOLDER_WITHDREW" });
    expect(JSON.parse(row.consent_record as string).withdrawnAt).toEqual(expect.any(String));

    await receivedAtLeast(hook, 1);
    const [delivery] = await hook.received();
    const event = await verifyWebhook<WebhookEvent<Json>>(delivery!.body, delivery!.headers["x-svc-signature"], endpoint.body.secret);
    expect(event.type).toBe("credential.revoked");
    expect(event.data.object).toMatchObject({ id: credential.id, status: "DELETED", revokedReason: "HOLDER_WITHDREW", consentRecord: { withdrawnAt: expect.any(String) } });

    // Used up: the page and a second withdrawal say so; jobs on it are refused.
    const again = await open(path);
    expect([again.status, alertCode(again.html)]).toEqual([401, "INVALID_TOKEN"]);
    expect((await withdraw(path)).status).toBe(401);
    const job = await callJson<Json>("/api/v1/data-jobs", { method: "POST", json: { ...TX_JOB, credentialId: credential.id }, ...asPartner(partner.apiKey, BUSINESS) });
    expect(job.body.code).toBe("CREDENTIAL_REVOKED");
    expect(await env.DB.prepare("SELECT count(*) AS n FROM jobs WHERE workspace_id = ?").bind(business.workspaceId).first("n")).toBe(0);
  });

  it("refuses a link that expired, was changed, was made for another credential or is a download link", async () => {
    const { partner, business } = await namedPartner();
    const credential = await heldCredential(partner);
    const now = Date.now();
    const maker = { apiKeyId: partner.apiKeyId, rights: { canManageKeys: true, expiresAt: null } };
    const expired = await createManageLink(env, ORIGIN, { id: credential.id, workspaceId: business.workspaceId }, maker, 60, now - 120_000);
    expect(alertCode((await open(pathOf(expired.url))).html)).toBe("TOKEN_EXPIRED");

    const { token } = await createManageLink(env, ORIGIN, { id: credential.id, workspaceId: business.workspaceId }, maker, 600, now);
    const [keyId, payload, mac] = token.split(".");
    const flipped = (s: string) => s.slice(0, -2) + (s.at(-2) === "A" ? "B" : "A") + s.at(-1);
    for (const changed of [`${keyId}.${flipped(payload!)}.${mac}`, `${keyId}.${payload}.${flipped(mac!)}`, `${token}x`, "x".repeat(2000)]) {
      expect(alertCode((await open(`/manage/${changed}`)).html)).toBe("INVALID_TOKEN");
    }
    // Signed for another workspace's credential: the link names both, and they must go together.
    const other = await heldCredential((await namedPartner()).partner);
    const crossed = await createManageLink(env, ORIGIN, { id: other.id, workspaceId: business.workspaceId }, maker, 600, now);
    expect(alertCode((await open(pathOf(crossed.url))).html)).toBe("INVALID_TOKEN");
    expect((await credentialRow(other.id))!.status).toBe("ACTIVE");
    const download = await signLink(env.DOWNLOAD_LINK_KEYS, { jobId: credential.id, workspaceId: business.workspaceId, apiKeyId: "k", expiresAt: Math.floor(now / 1000) + 600 });
    expect(alertCode((await open(`/manage/${download}`)).html)).toBe("INVALID_TOKEN");
    // A link cut short or run on by a mail client is the holder's page saying the link is wrong, as a changed one is, not JSON.
    for (const [method, path] of [["GET", "/manage/"], ["GET", "/manage"], ["GET", `/manage/${token}/`], ["GET", `/manage/${token}/more`], ["POST", `/manage/${token}/`]] as const) {
      const res = await call(path, { method, headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: ORIGIN }, body: method === "POST" ? "confirm=yes" : undefined });
      const html = await res.text();
      expect([method, path, res.status, res.headers.get("Content-Type"), alertCode(html)]).toEqual([method, path, 401, "text/html; charset=UTF-8", "INVALID_TOKEN"]);
      expect(html, path).toContain("관리 링크가 올바르지 않습니다");
    }
    expect((await open(pathOf(expired.url))).headers.get("Content-Type")).toBe("text/html; charset=UTF-8");
    expect((await credentialRow(credential.id))!.status).toBe("ACTIVE");
    // The right link still shows its own credential only.
    const page = await open(`/manage/${token}`);
    expect([page.status, page.html.includes(credential.label)]).toEqual([200, true]);
  });

  it("waits while a job runs on the credential, as deleting does, and the link stays usable", async () => {
    const { partner, business } = await namedPartner();
    const credential = await heldCredential(partner);
    await jobInWorkspace(business.workspaceId, [[], []], [0]);
    const path = pathOf((await manageLink(partner, credential.id)).body.url);
    const refused = await withdraw(path);
    expect([refused.status, alertCode(refused.html)]).toEqual([409, "CREDENTIAL_HAS_ACTIVE_CONNECTIONS"]);
    expect((await credentialRow(credential.id))!.status).toBe("ACTIVE");
    expect((await open(path)).status).toBe(200);
  });

  it("counts the page against the caller's address: past the limit, 429 API_RATE_LIMITED with Retry-After", async () => {
    const { partner } = await namedPartner();
    const credential = await heldCredential(partner);
    const path = pathOf((await manageLink(partner, credential.id)).body.url);
    const address = { "CF-Connecting-IP": `198.18.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}` };
    // One fixed window, however slow the machine: the burst runs on a stopped clock.
    await onClock(0, async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 100; i++) statuses.push((await call(path, { headers: address })).status);
      expect(new Set(statuses)).toEqual(new Set([200]));
      const over = await call(path, { headers: address });
      expect([over.status, (await over.json<Json>()).code]).toEqual([429, "API_RATE_LIMITED"]);
      expect(Number(over.headers.get("Retry-After"))).toBeGreaterThan(0);
    });
  });

  it("is mailed to the holder on request, from the mail outbox", async () => {
    const { partner } = await namedPartner();
    const credential = await heldCredential(partner);
    const to = `holder-${crypto.randomUUID()}@example.com`;
    const link = await manageLink(partner, credential.id, { mailTo: to, expiresInSeconds: 600 });
    expect([link.status, link.body.mailedTo]).toEqual([201, to]);
    const mail = await env.DB.prepare("SELECT subject, body FROM mail_outbox WHERE recipient = ?").bind(to).first<{ subject: string; body: string }>();
    expect(mail!.body).toContain(PARTNER_NAME);
    expect(mail!.body).toContain(link.body.url);
    expect((await open(pathOf(link.body.url))).status).toBe(200);
    expect((await manageLink(partner, credential.id, { mailTo: "not an address" })).body.code).toBe("INVALID_PARAM_FORMAT");
  });

  it("shows the workspace's console the consent's end and the withdrawal; owners set how long consents last", async () => {
    const owner = new ConsoleBrowser();
    const { workspaceId } = await owner.signUp();
    const page = `/console/w/${workspaceId}/credentials`;
    await owner.open(page);
    const refused = await owner.post(`${page}/consent-days`, { days: "0" });
    expect([refused.status, alertCode(refused.html)]).toEqual([400, "INVALID_PARAM_FORMAT"]);
    expect((await owner.post(`${page}/consent-days`, { days: "90" })).status).toBe(200);

    const { secret } = await issueApiKey(env.DB, { workspaceId, name: "test", canManageKeys: true });
    const credential = (await callJson<Json>("/api/v1/credentials", { method: "POST", key: secret, json: { providerCode: "sandbox.bank", authMethod: "PROVIDER_LOGIN", fields: { loginId: "user_good", password: "pass_good" }, label: "본점" } })).body;
    expect(Date.parse(credential.consentRecord.expiresAt) - Date.parse(credential.consentRecord.givenAt)).toBe(90 * 86_400_000);
    expect((await owner.open(page)).html).toContain(`data-consent-until="${credential.consentRecord.expiresAt}"`);
    expect((await owner.open(page)).html).not.toContain("withdrawal-notice");

    const link = (await callJson<Json>(`/api/v1/credentials/${credential.id}/manage-links`, { method: "POST", key: secret, json: {} })).body;
    expect((await withdraw(pathOf(link.url))).status).toBe(200);
    const after = (await owner.open(page)).html;
    expect(after).toMatch(/id="withdrawal-notice"[\s\S]*본점/);
    expect(after).toContain("소유자가 철회");
  });
});

describe("a holder's manage link, against an attacker", () => {
  it("stops working once the key that made it is revoked or its workspace suspended, and never outlives the key", async () => {
    const { partner } = await namedPartner();
    const credential = await heldCredential(partner);
    const second = await issueApiKey(env.DB, { workspaceId: partner.workspaceId, name: "상담 화면", canManageKeys: true });
    const bySecond = pathOf((await manageLink({ apiKey: second.secret }, credential.id, { expiresInSeconds: 86_400 })).body.url);
    const byFirst = pathOf((await manageLink(partner, credential.id)).body.url);
    expect((await open(bySecond)).status).toBe(200);

    expect((await callJson(`/api/v1/api-keys/${second.row.id}`, { method: "DELETE", key: partner.apiKey })).status).toBe(204);
    const revoked = await open(bySecond);
    expect([revoked.status, alertCode(revoked.html)]).toEqual([401, "INVALID_TOKEN"]);
    expect(revoked.html).toContain("API 키가 폐기");
    expect((await withdraw(bySecond)).status).toBe(401);
    expect((await credentialRow(credential.id))!.status).toBe("ACTIVE");
    // Only that key's links: the first key's still opens.
    expect((await open(byFirst)).status).toBe(200);

    await changeSuspension(env, partner.workspaceId, Date.now());
    try {
      const suspended = await open(byFirst);
      expect([suspended.status, alertCode(suspended.html)]).toEqual([401, "INVALID_TOKEN"]);
      expect(suspended.html).toContain("정지");
      expect((await withdraw(byFirst)).status).toBe(401);
      expect((await credentialRow(credential.id))!.status).toBe("ACTIVE");
    } finally {
      await changeSuspension(env, partner.workspaceId, null);
    }
    expect((await open(byFirst)).status).toBe(200);

    // A key that expires in ten minutes hands out no day-long link.
    const keyExpiry = Date.now() + 10 * 60_000;
    const short = await issueApiKey(env.DB, { workspaceId: partner.workspaceId, name: "10분", canManageKeys: true, expiresAt: keyExpiry });
    const made = await manageLink({ apiKey: short.secret }, credential.id, { expiresInSeconds: 86_400 });
    expect(made.body.expiresAt).toBe(new Date(Math.floor(keyExpiry / 1000) * 1000).toISOString());
  });

  it("deletes what was collected with the credential when its holder withdraws, and the page says exactly what went", async () => {
    const { partner, business } = await namedPartner();
    const credential = await heldCredential(partner);
    const jobId = await jobInWorkspace(business.workspaceId, [[bankTransaction("a", "급여", 10)]], [0]);
    const job = await callJson<Json>(`/api/v1/data-jobs/${jobId}`, asPartner(partner.apiKey, BUSINESS));
    expect([job.body.kind, job.body.credentialId]).toEqual(["Succeeded", credential.id]);
    expect((await call(`/api/v1/data-jobs/${jobId}/results`, asPartner(partner.apiKey, BUSINESS))).status).toBe(200);

    const path = pathOf((await manageLink(partner, credential.id)).body.url);
    const page = await open(path);
    expect(page.html).toContain("이 자격 증명으로 모은 자료(수집 결과)");
    const done = await withdraw(path);
    expect(done.status).toBe(200);
    expect(done.html).toMatch(/id="withdrawn"[^>]*>[^<]*모은 자료\(작업 1개의 수집 결과\)도 지웠습니다/);
    const gone = await callJson<Json>(`/api/v1/data-jobs/${jobId}/results`, asPartner(partner.apiKey, BUSINESS));
    expect([gone.status, gone.body.code]).toEqual([410, "DATA_JOB_RESULTS_DELETED"]);
  });

  it("mails the link built on the service's own origin, with a fixed subject, and not to whoever asks", async () => {
    const { partner } = await namedPartner();
    const credential = await heldCredential(partner);
    const to = `holder-${crypto.randomUUID()}@example.com`;
    // A request that reached the worker under another Host: the link is built on the configured origin all the same.
    const spoofed = new Request(`https://evil.example/api/v1/credentials/${credential.id}/manage-links`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "CF-Connecting-IP": "198.18.9.9", Authorization: `Bearer ${partner.apiKey}`, "X-SVC-Business": BUSINESS },
      body: JSON.stringify({ mailTo: to }),
    });
    const link = await (await createApp().fetch(spoofed, { ...env, PUBLIC_ORIGIN: "https://collect.example" })).json<Json>();
    expect(link.url).toMatch(/^https:\/\/collect\.example\/manage\//);
    const mail = await env.DB.prepare("SELECT subject, body FROM mail_outbox WHERE recipient = ?").bind(to).first<{ subject: string; body: string }>();
    expect(mail!.body).toContain(link.url);
    expect(mail!.body).not.toContain("evil.example");
    expect(mail!.subject).not.toContain(PARTNER_NAME);
    expect(mail!.subject).not.toMatch(/https?:|\.example/);

    // A bounded count a day per workspace: past it 429, and nothing more is mailed.
    const statuses: number[] = [];
    for (let i = 1; i < MANAGE_LINK_MAILS_PER_DAY; i++) statuses.push((await manageLink(partner, credential.id, { mailTo: `holder-${i}-${to}` })).status);
    expect(new Set(statuses)).toEqual(new Set([201]));
    const over = await manageLink(partner, credential.id, { mailTo: `over-${to}` });
    expect([over.status, over.body.code]).toEqual([429, "API_RATE_LIMITED"]);
    expect(over.body.message).toContain(`${MANAGE_LINK_MAILS_PER_DAY}통`);
    expect(Number(over.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM mail_outbox WHERE recipient = ?").bind(`over-${to}`).first("n")).toBe(0);
    // A link without a mail is still made.
    expect((await manageLink(partner, credential.id)).status).toBe(201);
  });

  it("mails nothing for a workspace whose owner has not confirmed their e-mail", async () => {
    const owner = new ConsoleBrowser();
    const { workspaceId } = await owner.signUp();
    const { secret } = await issueApiKey(env.DB, { workspaceId, name: "test", canManageKeys: true });
    const credential = (await callJson<Json>("/api/v1/credentials", { method: "POST", key: secret, json: { providerCode: "sandbox.bank", authMethod: "PROVIDER_LOGIN", fields: { loginId: "user_good", password: "pass_good" } } })).body;
    const to = `holder-${crypto.randomUUID()}@example.com`;
    const refused = await callJson<Json>(`/api/v1/credentials/${credential.id}/manage-links`, { method: "POST", key: secret, json: { mailTo: to } });
    expect([refused.status, refused.body.code]).toEqual([403, "WORKSPACE_ACCESS_DENIED"]);
    expect(refused.body.message).toContain("이메일 주소를 확인하기 전에는");
    expect(await env.DB.prepare("SELECT count(*) AS n FROM mail_outbox WHERE recipient = ?").bind(to).first("n")).toBe(0);
    expect((await callJson<Json>(`/api/v1/credentials/${credential.id}/manage-links`, { method: "POST", key: secret, json: {} })).status).toBe(201);
  });
});
