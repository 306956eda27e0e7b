import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { ProbeMessage } from "../../../../worker/domain/credentials/login-checks";
import { registerCredential, recheckCredential, sealedCredentialRow } from "../../../../worker/domain/credentials/replace";
import { findCredential } from "../../../../worker/domain/credentials/store";
import { invalidateCredential, openActiveCredential } from "../../../../worker/domain/credentials/job-credential";
import { hasActiveJob } from "../../../../worker/domain/jobs/store";
import { issueApiKey } from "../../../../worker/domain/api-keys/store";
import { encryptForService, hostedUiHeaders } from "../../../support/workers/registration-envelope";
import { issueJointCertificate } from "../../../../sandbox/certificates/issue";
import { callJson, createWorkspace, withCapturedQueue } from "../../../support/workers/helpers";
import { harness } from "../../../support/workers/pipeline-harness";

type Json = Record<string, any>;
const BIZNO = "1208800767";

/** Registers a bank login as the API does, with the probe message captured rather than consumed. */
async function registered(password: string) {
  const ws = await createWorkspace();
  const queue = withCapturedQueue();
  const row = await sealedCredentialRow(env.VAULT_MASTER_KEY, ws.workspaceId, {
    providerCode: "sandbox.bank",
    credential: { authMethod: "PROVIDER_LOGIN", loginId: "user_good", password },
    certificate: null,
    businessNumber: null,
    check: true,
  });
  await registerCredential(queue.env, row, hasActiveJob);
  return { ws, row, queue, probe: queue.sent[0] as ProbeMessage };
}

const checkOf = async (ws: { workspaceId: string }, id: string) => (await findCredential(env.DB, ws.workspaceId, id));

describe("checking a credential when it is registered", () => {
  it("logs in once at the institution and shows the credential VALID, creating no job", async () => {
    const { ws, row, probe } = await registered("pass_good");
    expect(probe).toMatchObject({ type: "probe", credentialId: row.id, providerCode: "sandbox.bank" });
    expect((await checkOf(ws, row.id)).checkState).toBe("CHECKING");
    const h = harness();
    await h.settle(probe);
    expect(h.logins()).toBe(1);
    const view = (await callJson<Json>(`/api/v1/credentials/${row.id}`, { key: ws.apiKey })).body;
    expect(view.check).toEqual({ state: "VALID", error: null, checkedAt: expect.any(String) });
    expect((await env.DB.prepare("SELECT count(*) AS n FROM jobs WHERE workspace_id = ?").bind(ws.workspaceId).first<{ n: number }>())!.n).toBe(0);
  });

  it("shows a login the institution refuses INVALID with the job error, and marks it refused so no job tries it", async () => {
    const { ws, row, probe } = await registered("wrong_password");
    await harness().settle(probe);
    const view = (await callJson<Json>(`/api/v1/credentials/${row.id}`, { key: ws.apiKey })).body;
    expect(view.check).toMatchObject({ state: "INVALID", error: { category: "CREDENTIAL", code: "LOGIN_FAILED", retryable: false } });
    expect(view.refusal).toMatchObject({ code: "LOGIN_FAILED" });
    // Nothing is left to log in with: checking again is refused until it is registered again.
    const again = await callJson<Json>(`/api/v1/credentials/${row.id}/check`, { method: "POST", key: ws.apiKey, json: {} });
    expect([again.status, again.body.code]).toEqual([422, "CREDENTIAL_PROBE_FAILED"]);
  });

  it("settles only under the newest check: a probe overtaken by a new check changes nothing", async () => {
    const { ws, row, probe } = await registered("pass_good");
    const queue = withCapturedQueue();
    expect(await recheckCredential(queue.env, row, "sandbox.bank")).toBe(true);
    const newer = queue.sent[0] as ProbeMessage;
    expect(newer.checkId).not.toBe(probe.checkId);
    await harness().settle(probe);
    expect((await checkOf(ws, row.id)).checkState).toBe("CHECKING");
    await harness().settle(newer);
    expect((await checkOf(ws, row.id)).checkState).toBe("VALID");
  });
});

describe("checking a credential again", () => {
  it("starts a check through the API and says what a global certificate must name", async () => {
    const ws = await createWorkspace({ businessNumber: BIZNO });
    const login = await callJson<Json>("/api/v1/credentials", { method: "POST", key: ws.apiKey, json: { providerCode: "sandbox.bank", authMethod: "PROVIDER_LOGIN", fields: { loginId: "user_good", password: "pass_good" } } });
    // This project registers without checks (CREDENTIAL_CHECKS=off, vitest.config.ts): never checked until asked.
    expect(login.body.check).toBeNull();
    const again = await callJson<Json>(`/api/v1/credentials/${login.body.id}/check`, { method: "POST", key: ws.apiKey, json: {} });
    expect([again.status, again.body.check.state]).toEqual([202, "CHECKING"]);
    const elsewhere = await callJson<Json>(`/api/v1/credentials/${login.body.id}/check`, { method: "POST", key: ws.apiKey, json: { providerCode: "sandbox.card" } });
    expect([elsewhere.status, elsewhere.body.code]).toEqual([400, "PROVIDER_CODE_MISMATCH"]);

    const { certificate, privateKey, password } = await issueJointCertificate({ idn: BIZNO });
    const global = (await callJson<Json>("/api/v1/credentials", { method: "POST", key: ws.apiKey, json: { authMethod: "CERTIFICATE", fields: { certificate, privateKey, password } } })).body;
    expect(global.check).toBeNull();
    const cases: [Json, number, string][] = [
      [{}, 400, "PROVIDER_CODE_REQUIRED_FOR_GLOBAL_CERT"],
      [{ providerCode: "sandbox.bank" }, 422, "CREDENTIAL_INSUFFICIENT_FOR_PROVIDER"],
      [{ providerCode: "nope" }, 400, "INVALID_PROVIDER_CODE"],
    ];
    for (const [json, status, code] of cases) {
      const res = await callJson<Json>(`/api/v1/credentials/${global.id}/check`, { method: "POST", key: ws.apiKey, json });
      expect([json, res.status, res.body.code]).toEqual([json, status, code]);
    }
    const atTaxPortal = await callJson<Json>(`/api/v1/credentials/${global.id}/check`, { method: "POST", key: ws.apiKey, json: { providerCode: "sandbox.taxportal" } });
    expect([atTaxPortal.status, atTaxPortal.body.check.state]).toEqual([202, "CHECKING"]);
  });
});

describe("who may check a credential, and how often", () => {
  const check = (key: string, id: string) => callJson<Json>(`/api/v1/credentials/${id}/check`, { method: "POST", key, json: {} });
  const requestedAt = async (id: string) => (await env.DB.prepare("SELECT check_requested_at AS at, check_id AS checkId FROM credentials WHERE id = ?").bind(id).first<{ at: number | null; checkId: string | null }>())!;

  it("refuses a key without the managing right with 403 ADMIN_ACTION_FORBIDDEN, starting no login", async () => {
    const ws = await createWorkspace();
    const memberKey = (await issueApiKey(env.DB, { workspaceId: ws.workspaceId, name: "데이터 전용" })).secret;
    const id = (await callJson<Json>("/api/v1/credentials", { method: "POST", key: ws.apiKey, json: { providerCode: "sandbox.bank", authMethod: "PROVIDER_LOGIN", fields: { loginId: "user_good", password: "pass_good" } } })).body.id;
    const refused = await check(memberKey, id);
    expect([refused.status, refused.body.code]).toEqual([403, "ADMIN_ACTION_FORBIDDEN"]);
    expect(refused.body.message).toContain("관리 권한(canManageKeys)");
    expect(await requestedAt(id)).toEqual({ at: null, checkId: null });
    expect((await check(ws.apiKey, id)).status).toBe(202);
  });

  it("starts one check of a credential a minute: the rest, asked at once or soon after, are 429 API_RATE_LIMITED with Retry-After", async () => {
    const ws = await createWorkspace();
    const id = (await callJson<Json>("/api/v1/credentials", { method: "POST", key: ws.apiKey, json: { providerCode: "sandbox.bank", authMethod: "PROVIDER_LOGIN", fields: { loginId: "user_good", password: "pass_good" } } })).body.id;
    const queue = withCapturedQueue();
    const credential = await findCredential(env.DB, ws.workspaceId, id);
    // Five at once, as five isolates would take them: one probe goes out.
    const outcomes = await Promise.allSettled(Array.from({ length: 5 }, () => recheckCredential(queue.env, credential, "sandbox.bank")));
    expect(outcomes.filter((o) => o.status === "fulfilled").length).toBe(1);
    expect(queue.sent).toHaveLength(1);
    for (const o of outcomes.filter((o) => o.status === "rejected")) expect((o as PromiseRejectedResult).reason).toMatchObject({ code: "API_RATE_LIMITED", status: 429 });
    const started = await requestedAt(id);

    // Through the API, the same minute: the envelope, a Korean message and when to come back; nothing restarted.
    const again = await callJson<Json>(`/api/v1/credentials/${id}/check`, { method: "POST", key: ws.apiKey, json: {} });
    expect([again.status, again.body.code]).toEqual([429, "API_RATE_LIMITED"]);
    expect(again.body.message).toContain("1분에 한 번");
    expect(again.body.requestId).toEqual(expect.any(String));
    const retryAfter = Number(again.headers.get("Retry-After"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(await requestedAt(id)).toEqual(started);

    // A minute on, it may be checked again.
    await env.DB.prepare("UPDATE credentials SET check_requested_at = check_requested_at - 60000 WHERE id = ?").bind(id).run();
    const later = await callJson<Json>(`/api/v1/credentials/${id}/check`, { method: "POST", key: ws.apiKey, json: {} });
    expect([later.status, later.body.check.state]).toEqual([202, "CHECKING"]);
    expect((await requestedAt(id)).checkId).not.toBe(started.checkId);
  });
});

describe("recovering a credential whose secret is lost", () => {
  const ORIGINS = ["https://partner.example"];
  const BANK_OPTION = [{ kind: "PROVIDER_LOGIN", providerCode: "sandbox.bank" }];
  const recoverySession = (ws: { apiKey: string }, credentialId: string, registrationOptions: Json[] = BANK_OPTION) =>
    callJson<Json>("/api/v1/registration-sessions", { method: "POST", key: ws.apiKey, json: { registrationOptions, originAllowlist: ORIGINS, recoverCredentialId: credentialId } });
  async function submit(token: string, loginId: string) {
    const session = (await callJson<Json>("/connect/api/session", { headers: hostedUiHeaders(token) })).body;
    const envelope = await encryptForService(session.encryptionKey, session.sessionId, { loginId, password: "pass_good" });
    return callJson<Json>("/connect/api/registrations", { method: "POST", headers: hostedUiHeaders(token), json: { kind: "PROVIDER_LOGIN", providerCode: "sandbox.bank", envelope } });
  }

  it("lets the end-user re-enter only the secret, keeping the credential's id; another login or a second session is refused", async () => {
    const ws = await createWorkspace();
    const credential = (await callJson<Json>("/api/v1/credentials", { method: "POST", key: ws.apiKey, json: { providerCode: "sandbox.bank", authMethod: "PROVIDER_LOGIN", fields: { loginId: "user_good", password: "pass_good" }, label: "본점" } })).body;
    // Its secret is fine: nothing to recover.
    expect((await recoverySession(ws, credential.id)).body.code).toBe("CREDENTIAL_RECOVERY_NOT_ALLOWED");
    // The institution refused it: its secret is erased.
    await invalidateCredential(env.DB, credential.id, "LOGIN_FAILED", Date.now());
    expect((await recoverySession(ws, credential.id, [{ kind: "PROVIDER_LOGIN", providerCode: "sandbox.card" }])).body.code).toBe("REGISTRATION_SESSION_INVALID_REGISTRATION_OPTIONS");
    const session = await recoverySession(ws, credential.id);
    expect(session.status).toBe(201);
    expect((await recoverySession(ws, credential.id)).body.code).toBe("CREDENTIAL_RECOVERY_IN_PROGRESS");

    const another = await submit(session.body.sessionToken, "user_other");
    expect([another.status, another.body.code]).toEqual([400, "CREDENTIAL_RECOVERY_VALIDATION_FAILED"]);
    const restored = await submit(session.body.sessionToken, "user_good");
    expect(restored.status).toBe(201);
    const result = (await callJson<Json>(`/api/v1/registration-sessions/${session.body.sessionId}`, { key: ws.apiKey })).body;
    expect(result).toMatchObject({ status: "CONSUMED", credentialId: credential.id });
    const shown = (await callJson<Json>(`/api/v1/credentials/${credential.id}`, { key: ws.apiKey })).body;
    expect(shown).toMatchObject({ id: credential.id, status: "ACTIVE", label: "본점", isDefault: true, refusal: null });
    expect(await openActiveCredential(env.DB, env.VAULT_MASTER_KEY, credential.id)).toMatchObject({ loginId: "user_good", password: "pass_good" });
  });
});
