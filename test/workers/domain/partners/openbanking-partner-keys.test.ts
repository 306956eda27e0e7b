import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { REPLICA_CLIENT, REPLICA_PARTNER_CLIENT, userByLogin } from "../../../../sandbox/openbanking/ground-truth";
import { refreshDueConsents } from "../../../../worker/domain/pipeline/consent-refresh";
import { pipelineDeps } from "../../../../worker/domain/pipeline/deps";
import { withCheckDigit } from "../../../../contracts/business-number";
import { call, callJson, createWorkspace, type TestWorkspace } from "../../../support/workers/helpers";
import { hostedUiHeaders } from "../../../support/workers/registration-envelope";
import { asPartner, partnerWithConnection } from "../../../support/workers/partner-helpers";
import { completeOpenBanking, endTokenAt } from "../../../support/workers/consent-helpers";

type Json = Record<string, any>;
const OPTION = { kind: "PROVIDER_LOGIN", providerCode: "openbanking" };
const KEYS_PATH = "/api/v1/partner-profile/open-banking-keys";

const freshBusinessNumber = () => withCheckDigit(String(Math.floor(Math.random() * 1e9)).padStart(9, "0"));

/** Who issues: a workspace for itself, or a partner for one of its businesses. */
type Issuer = { key: string; headers?: Headers };
const own = (ws: TestWorkspace): Issuer => ({ key: ws.apiKey });

async function issue(by: Issuer) {
  const res = await callJson<Json>("/api/v1/registration-sessions", { method: "POST", ...by, json: { registrationOptions: [OPTION], originAllowlist: ["https://partner.example"] } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { sessionId: string; sessionToken: string };
}

/** Our authorize route's URL for the session: the client id it names. */
async function authorizeUrl(token: string): Promise<URL> {
  const started = await callJson<Json>("/connect/api/open-banking/authorizations", { method: "POST", headers: hostedUiHeaders(token), json: { providerCode: "openbanking" } });
  expect(started.status, JSON.stringify(started.body)).toBe(201);
  return new URL(started.body.authorizationUrl);
}

/** The person consents at the replica's page (plain HTTP), the replica sends the browser to our callback, and the hosted page completes. */
async function consent(by: Issuer, loginId: string): Promise<{ credentialId: string; clientId: string }> {
  const session = await issue(by);
  const authorize = await authorizeUrl(session.sessionToken);
  const user = userByLogin(loginId)!;
  const sessionId = /name="session" value="([^"]+)"/.exec(await (await fetch(authorize)).text())![1]!;
  const post = (path: string, form: URLSearchParams) => fetch(new URL(path, authorize), { method: "POST", body: form, redirect: "manual", headers: { "Content-Type": "application/x-www-form-urlencoded" } });
  await (await post("authorize_login", new URLSearchParams({ session: sessionId, user_id: user.loginId, password: user.password, action: "login" }))).text();
  const form = new URLSearchParams({ session: sessionId, action: "agree" });
  form.append("fintech_use_num", user.accounts[0]!.fintechUseNum);
  const back = await post("authorize_consent", form);
  expect(back.status).toBe(302);
  const completed = await completeOpenBanking(session.sessionToken, new URL(back.headers.get("location")!));
  expect(completed.body, JSON.stringify(completed.body)).toMatchObject({ state: "CONNECTED" });
  const after = await callJson<Json>(`/api/v1/registration-sessions/${session.sessionId}`, by);
  expect(after.body.status).toBe("CONSUMED");
  return { credentialId: after.body.credentialId, clientId: authorize.searchParams.get("client_id")! };
}

const consentCode = async (credentialId: string) =>
  (await env.DB.prepare("SELECT json_extract(consent, '$.clientUseCode') AS code FROM credentials WHERE id = ?").bind(credentialId).first<{ code: string }>())!.code;

async function runJob(by: Issuer): Promise<Json> {
  const created = await callJson<Json>("/api/v1/data-jobs", { method: "POST", ...by, json: { providerCode: "openbanking", schema: "bank.accounts.cb.v1", params: {} } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return vi.waitUntil(
    async () => {
      const job = await callJson<Json>(`/api/v1/data-jobs/${created.body.id}`, by);
      return job.body.kind === "InProgress" ? null : job.body;
    },
    { timeout: 120_000, interval: 1000 },
  );
}

describe("a partner's own Open Banking keys", () => {
  it("are set by a partner with the management right, sealed, never shown back", async () => {
    const partner = await createWorkspace({ isPartner: true });
    const set = await callJson<Json>(KEYS_PATH, { method: "PUT", key: partner.apiKey, json: REPLICA_PARTNER_CLIENT });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body).toEqual({ clientId: REPLICA_PARTNER_CLIENT.clientId, clientUseCode: REPLICA_PARTNER_CLIENT.clientUseCode, setAt: expect.any(String) });
    expect(JSON.stringify(set.body)).not.toContain(REPLICA_PARTNER_CLIENT.clientSecret);
    const row = await env.DB.prepare("SELECT sealed_secret AS sealed FROM partner_open_banking_keys WHERE partner_workspace_id = ?").bind(partner.workspaceId).first<Json>();
    expect(row!.sealed).toMatch(/"ct"/);
    expect(row!.sealed).not.toContain(REPLICA_PARTNER_CLIENT.clientSecret);

    const bad = await callJson<Json>(KEYS_PATH, { method: "PUT", key: partner.apiKey, json: { ...REPLICA_PARTNER_CLIENT, clientUseCode: "short" } });
    expect(bad.status).toBe(400);
    const notPartner = await createWorkspace();
    const refused = await callJson<Json>(KEYS_PATH, { method: "PUT", key: notPartner.apiKey, json: REPLICA_PARTNER_CLIENT });
    expect(refused.body.code).toBe("CONNECTION_NOT_ALLOWED_FOR_NON_PARTNER");
    expect((await call(KEYS_PATH, { method: "DELETE", key: partner.apiKey })).status).toBe(204);
    expect(await env.DB.prepare("SELECT 1 FROM partner_open_banking_keys WHERE partner_workspace_id = ?").bind(partner.workspaceId).first()).toBeNull();
  });

  it("serve the partner's businesses only: consent, job and refresh with them; other workspaces use the deployment's", async () => {
    const business = freshBusinessNumber();
    const partner = await partnerWithConnection(business);
    expect((await callJson<Json>(KEYS_PATH, { method: "PUT", key: partner.apiKey, json: REPLICA_PARTNER_CLIENT })).status).toBe(200);
    const forBusiness = asPartner(partner.apiKey, business);

    const made = await consent(forBusiness, "obuser2");
    expect(made.clientId).toBe(REPLICA_PARTNER_CLIENT.clientId);
    expect(await consentCode(made.credentialId)).toBe(REPLICA_PARTNER_CLIENT.clientUseCode);
    // The replica checks each bank_tran_id against the token's 이용기관: the job's ids carry the partner's code.
    const job = await runJob(forBusiness);
    expect(job.kind, JSON.stringify(job)).toBe("Succeeded");

    // Refresh opens the partner's keys (the replica refuses another client's refresh token): once the access token
    // (90 days) has ended, as the default policy refreshes.
    await endTokenAt(made.credentialId, Date.now() - 1000);
    await refreshDueConsents(env, pipelineDeps(env), Date.now());
    const refreshed = (await callJson<Json>(`/api/v1/credentials/${made.credentialId}`, forBusiness)).body;
    expect(refreshed.consent.refreshedAt, JSON.stringify(refreshed)).not.toBeNull();
    expect(refreshed.refusal).toBeNull();

    // Another partner acting for the same business, and a workspace of its own: the deployment's keys.
    const other = await partnerWithConnection(business);
    const otherMade = await consent(asPartner(other.apiKey, business), "obuser1");
    expect(otherMade.clientId).toBe(REPLICA_CLIENT.clientId);
    expect(await consentCode(otherMade.credentialId)).toBe(REPLICA_CLIENT.clientUseCode);
    const plain = await createWorkspace({ businessNumber: freshBusinessNumber() });
    expect((await authorizeUrl((await issue(own(plain))).sessionToken)).searchParams.get("client_id")).toBe(REPLICA_CLIENT.clientId);
    // A second business of the same partner uses the partner's keys too.
    const second = freshBusinessNumber();
    expect((await callJson<Json>("/api/v1/connections", { method: "POST", key: partner.apiKey, json: { businessNumber: second } })).status).toBe(201);
    expect((await authorizeUrl((await issue(asPartner(partner.apiKey, second))).sessionToken)).searchParams.get("client_id")).toBe(REPLICA_PARTNER_CLIENT.clientId);

    // Keys removed: the consent made with them can no longer be refreshed, and ends as a refused refresh does.
    expect((await call(KEYS_PATH, { method: "DELETE", key: partner.apiKey })).status).toBe(204);
    await endTokenAt(made.credentialId, Date.now() - 1000);
    await refreshDueConsents(env, pipelineDeps(env), Date.now());
    const ended = (await callJson<Json>(`/api/v1/credentials/${made.credentialId}`, forBusiness)).body;
    expect(ended.refusal).toMatchObject({ code: "NO_VALID_CREDENTIAL" });
    // The other partner's consent, made with the deployment's keys, is refreshed as before.
    const untouched = (await callJson<Json>(`/api/v1/credentials/${otherMade.credentialId}`, asPartner(other.apiKey, business))).body;
    expect(untouched.refusal).toBeNull();
  });
});
