import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { accountOf, balanceOf, transactionsBetween, userByLogin } from "../../../../sandbox/openbanking/ground-truth";
import { refreshConsents } from "../../../../worker/domain/credentials/consents";
import { refreshDueConsents, refreshLease } from "../../../../worker/domain/pipeline/consent-refresh";
import { pipelineDeps } from "../../../../worker/domain/pipeline/deps";
import { scraperClient } from "../../../../worker/domain/scraper/binding";
import { warnExpiringCertificates } from "../../../../worker/domain/credentials/expiry-warnings";
import { openCredential, sealCredential } from "../../../../worker/domain/vault/envelope";
import { call, callJson, createWorkspace, type TestWorkspace } from "../../../support/workers/helpers";
import { hostedUiHeaders } from "../../../support/workers/registration-envelope";
import { completeOpenBanking, consentAtReplica, endTokenAt } from "../../../support/workers/consent-helpers";

type Json = Record<string, any>;
const DAY = 86_400_000;
const OPTION = { kind: "PROVIDER_LOGIN", providerCode: "openbanking" };

async function issue(ws: TestWorkspace, extra: Json = {}) {
  const res = await callJson<Json>("/api/v1/registration-sessions", { method: "POST", key: ws.apiKey, json: { registrationOptions: [OPTION], originAllowlist: ["https://partner.example"], ...extra } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { sessionId: string; sessionToken: string };
}

/**
 * The person's side, by plain HTTP: our route binds a state and names KFTC's page (the replica's, through the
 * stand-ins), the person logs in there and ticks accounts, the replica sends the browser to our callback, and the
 * hosted page completes the consent with what its window handed it.
 */
async function consent(token: string, loginId: string, options: { fintechs?: string[]; action?: "agree" | "cancel" } = {}) {
  const { authorize, callback } = await consentAtReplica(token, loginId, options);
  expect(authorize.searchParams.get("redirect_uri")).toBe("https://api.test/connect/open-banking/callback");
  const completed = await completeOpenBanking(token, callback);
  return { ...completed, callback };
}

async function consented(ws: TestWorkspace, loginId: string, fintechs?: string[]): Promise<string> {
  const session = await issue(ws);
  const { body } = await consent(session.sessionToken, loginId, { fintechs });
  expect(body, JSON.stringify(body)).toMatchObject({ state: "CONNECTED" });
  const after = await callJson<Json>(`/api/v1/registration-sessions/${session.sessionId}`, { key: ws.apiKey });
  expect(after.body.status).toBe("CONSUMED");
  return after.body.credentialId;
}

async function runJob(ws: TestWorkspace, body: Json): Promise<Json> {
  const created = await callJson<Json>("/api/v1/data-jobs", { method: "POST", key: ws.apiKey, json: { providerCode: "openbanking", ...body } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return vi.waitUntil(
    async () => {
      const job = await callJson<Json>(`/api/v1/data-jobs/${created.body.id}`, { key: ws.apiKey });
      return job.body.kind === "InProgress" ? null : job.body;
    },
    { timeout: 120_000, interval: 1000 },
  );
}

const results = async (ws: TestWorkspace, id: string) => (await callJson<Json>(`/api/v1/data-jobs/${id}/results`, { key: ws.apiKey })).body;

/** Reseals a consent's tokens as a test needs them (an access token past its end, a refresh token KFTC no longer knows). */
async function alterTokens(credentialId: string, change: Json): Promise<void> {
  const row = (await env.DB.prepare("SELECT workspace_id AS workspaceId, provider_code AS providerCode, sealed FROM credentials WHERE id = ?").bind(credentialId).first<Json>())!;
  const binding = { credentialId, workspaceId: row.workspaceId, providerCode: row.providerCode };
  const opened = await openCredential(env.VAULT_MASTER_KEY, binding, row.sealed);
  await env.DB.prepare("UPDATE credentials SET sealed = ? WHERE id = ?").bind(await sealCredential(env.VAULT_MASTER_KEY, binding, { ...opened, ...change } as never), credentialId).run();
}

/** The consent's tokens as sealed now. */
async function tokensOf(credentialId: string): Promise<Json> {
  const row = (await env.DB.prepare("SELECT workspace_id AS workspaceId, provider_code AS providerCode, sealed FROM credentials WHERE id = ?").bind(credentialId).first<Json>())!;
  return openCredential(env.VAULT_MASTER_KEY, { credentialId, workspaceId: row.workspaceId, providerCode: row.providerCode }, row.sealed) as Promise<Json>;
}

/** One of the replica's token switches (sandbox/openbanking/site.ts TokenSwitch) on the consent's current tokens. */
async function switchToken(credentialId: string, which: "end-access" | "refuse-early-refresh"): Promise<void> {
  const tokens = await tokensOf(credentialId);
  const token = which === "end-access" ? tokens.accessToken : tokens.refreshToken;
  const res = await fetch(`${env.SANDBOX_BASE_URL}/sandbox/openbanking/tokens`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ token, switch: which }) });
  expect(res.status).toBe(200);
}

describe("Open Banking as a provider", () => {
  it("is in the catalog as a consent: no fields to type, offered as PROVIDER_LOGIN, refused as a typed credential", async () => {
    const ws = await createWorkspace({ businessNumber: "1208800767" });
    const provider = await callJson<Json>("/api/v1/providers/openbanking", { key: ws.apiKey });
    expect(provider.body).toMatchObject({ code: "openbanking", kind: "BANK", sandbox: false, verification: "replica", schemas: ["bank.accounts.cb.v1", "bank.transactions.cb.v1"], acceptedAuthMethods: ["OPEN_BANKING"], maxDateRangeDays: 366 });
    const schema = await callJson<Json>("/api/v1/providers/openbanking/credential-schema", { key: ws.apiKey });
    expect(schema.body).toEqual({ providerCode: "openbanking", acceptedAuthMethods: ["OPEN_BANKING"], consent: true, fields: [] });
    const typed = await callJson<Json>("/api/v1/credentials", { method: "POST", key: ws.apiKey, json: { providerCode: "openbanking", authMethod: "OPEN_BANKING", fields: {} } });
    expect(typed.status).toBe(400);
    expect(typed.body.code).toBe("UNSUPPORTED_AUTH_METHOD");
    const session = await issue(ws);
    const page = await callJson<Json>("/connect/api/session", { headers: hostedUiHeaders(session.sessionToken) });
    expect(page.body.options).toEqual([expect.objectContaining({ kind: "PROVIDER_LOGIN", providerCode: "openbanking", consent: true, fields: [] })]);
  });

  it("registers a consent through our routes and the replica's page, and collects a year of transactions equal to ground truth", async () => {
    const ws = await createWorkspace({ businessNumber: "1208800767" });
    const user = userByLogin("obuser1")!;
    const checking = user.accounts[0]!;
    const session = await issue(ws);
    const { status, body, callback } = await consent(session.sessionToken, "obuser1", { fintechs: [checking.fintechUseNum] });
    expect(status).toBe(200);
    expect(body).toEqual({ state: "CONNECTED", code: null, message: null });
    const outcome = await callJson<Json>("/connect/api/open-banking/consent", { headers: hostedUiHeaders(session.sessionToken) });
    expect(outcome.body).toEqual({ state: "CONNECTED", code: null, message: null });
    // The session was good once: the same callback again registers nothing.
    const replay = await completeOpenBanking(session.sessionToken, callback);
    expect(replay.status).toBe(410);
    expect(replay.body.code).toBe("REGISTRATION_SESSION_ALREADY_CONSUMED");

    const shown = await callJson<Json>(`/api/v1/registration-sessions/${session.sessionId}`, { key: ws.apiKey });
    expect(shown.body).toMatchObject({ status: "CONSUMED", registrationOptions: [OPTION] });
    const credential = await callJson<Json>(`/api/v1/credentials/${shown.body.credentialId}`, { key: ws.apiKey });
    expect(credential.body).toMatchObject({ providerCode: "openbanking", authMethod: "OPEN_BANKING", status: "ACTIVE", certificate: null });
    expect(credential.body.consent.accounts).toEqual([{ accountNumber: checking.fintechUseNum, accountNumberFormatted: checking.accountNumMasked, bankCode: checking.bankCodeStd, bankName: checking.bankName, displayName: checking.accountAlias }]);
    expect(Date.parse(credential.body.consent.expiresAt) - Date.now()).toBeGreaterThan(364 * DAY);
    expect(JSON.stringify(credential.body)).not.toMatch(/accessToken|refreshToken/);
    const row = await env.DB.prepare("SELECT sealed, consent FROM credentials WHERE id = ?").bind(shown.body.credentialId).first<Json>();
    expect(row!.sealed).toMatch(/"ct"/);
    expect(row!.consent).not.toMatch(/accessToken|refreshToken|userSeqNo/);

    const accounts = await runJob(ws, { schema: "bank.accounts.cb.v1", params: {} });
    expect(accounts.kind, JSON.stringify(accounts)).toBe("Succeeded");
    const [account] = (await results(ws, accounts.id)).data;
    expect(account).toMatchObject({ accountNumber: checking.fintechUseNum, balance: balanceOf(checking.fintechUseNum).balance, currencyCode: "KRW" });

    const year = await runJob(ws, { schema: "bank.transactions.cb.v1", params: { dateRangeStart: "2025-01-01", dateRangeEnd: "2025-12-31" } });
    expect(year.kind, JSON.stringify(year)).toBe("Succeeded");
    const records = (await results(ws, year.id)).data as Json[];
    const truth = transactionsBetween(checking.fintechUseNum, "2025-01-01", "2025-12-31");
    expect(truth.length).toBeGreaterThan(300);
    expect(new Set(records.map((r) => r.identifier)).size).toBe(records.length);
    const iso = (d: string, t: string) => `${d.slice(0, 4)}-${d.slice(4, 6)}-${d.slice(6)}T${t.slice(0, 2)}:${t.slice(2, 4)}:${t.slice(4)}+09:00`;
    expect(records.map((r) => [r.accountNumber, r.transactionAt, r.amount, r.balance])).toEqual(
      truth.map((t) => [checking.fintechUseNum, iso(t.tran_date, t.tran_time), t.inout_type === "입금" ? t.tran_amt : -t.tran_amt, t.after_balance_amt]),
    );
  });

  it("answers a refused consent with a Korean message and LOGIN_FAILED, and registers nothing", async () => {
    const ws = await createWorkspace({ businessNumber: "1208800767" });
    const session = await issue(ws);
    const { body } = await consent(session.sessionToken, "obuser2", { action: "cancel" });
    expect(body).toMatchObject({ state: "FAILED", code: "LOGIN_FAILED", message: expect.stringContaining("오픈뱅킹 동의가 취소되었거나") });
    const outcome = await callJson<Json>("/connect/api/open-banking/consent", { headers: hostedUiHeaders(session.sessionToken) });
    expect(outcome.body).toMatchObject({ state: "FAILED", code: "LOGIN_FAILED" });
    const shown = await callJson<Json>(`/api/v1/registration-sessions/${session.sessionId}`, { key: ws.apiKey });
    expect(shown.body).toMatchObject({ status: "PENDING", attempts: 1, credentialId: null });
    // A callback with a state nobody issued is refused the same way.
    const stray = await completeOpenBanking(session.sessionToken, new URL("https://api.test/connect/open-banking/callback?code=x&state=notissued"));
    expect(stray.body).toMatchObject({ state: "FAILED", code: "LOGIN_FAILED" });
  });

  it("refreshes tokens before they end, and marks a consent whose refresh KFTC refuses", async () => {
    const ws = await createWorkspace({ businessNumber: "1208800767" });
    const id = await consented(ws, "obuser2", [userByLogin("obuser2")!.accounts[0]!.fintechUseNum]);
    const before = (await callJson<Json>(`/api/v1/credentials/${id}`, { key: ws.apiKey })).body;
    const sealedBefore = (await env.DB.prepare("SELECT sealed FROM credentials WHERE id = ?").bind(id).first<Json>())!.sealed;
    // The 90-day token has ended: the default policy refreshes it now (collectors/openbanking/options.ts).
    await endTokenAt(id, Date.now() - 1000);
    await refreshDueConsents(env, pipelineDeps(env), Date.now());
    const after = (await callJson<Json>(`/api/v1/credentials/${id}`, { key: ws.apiKey })).body;
    expect(after.consent.refreshedAt).not.toBeNull();
    expect(after.consent.expiresAt).toBe(before.consent.expiresAt);
    expect((await env.DB.prepare("SELECT sealed FROM credentials WHERE id = ?").bind(id).first<Json>())!.sealed).not.toBe(sealedBefore);
    // The new tokens work.
    const again = await runJob(ws, { schema: "bank.accounts.cb.v1", params: {} });
    expect(again.kind, JSON.stringify(again)).toBe("Succeeded");

    await alterTokens(id, { refreshToken: "no-longer-known" });
    await endTokenAt(id, Date.now() - 1000);
    await refreshDueConsents(env, pipelineDeps(env), Date.now());
    const ended = (await callJson<Json>(`/api/v1/credentials/${id}`, { key: ws.apiKey })).body;
    expect(ended.refusal).toMatchObject({ code: "NO_VALID_CREDENTIAL" });
    const job = await runJob(ws, { schema: "bank.accounts.cb.v1", params: {} });
    expect(job).toMatchObject({ kind: "Failed", error: { code: "NO_VALID_CREDENTIAL" } });
  });

  it("refreshes under the credential's lease: not while a job holds it, and a second run that read the old pair erases nothing", async () => {
    const ws = await createWorkspace({ businessNumber: "1208800767" });
    const id = await consented(ws, "obuser2", [userByLogin("obuser2")!.accounts[1]!.fintechUseNum]);
    const deps = pipelineDeps(env);
    await endTokenAt(id, Date.now() - 1000);
    const now = Date.now();
    const shown = async () => (await callJson<Json>(`/api/v1/credentials/${id}`, { key: ws.apiKey })).body;

    // A job holds the lease: its tokens are not swapped under it; the consent waits for the next run.
    const lock = deps.lockFor(id);
    expect((await lock.acquire("a-running-job", 60_000)).granted).toBe(true);
    expect((await refreshDueConsents(env, deps, now)).busy).toBeGreaterThanOrEqual(1);
    expect((await shown()).consent.refreshedAt).toBeNull();
    await lock.release("a-running-job", 60_000);

    // Two overlapping runs read the due consent at once; the second takes the lease only once the first refreshed,
    // so KFTC refuses the refresh token it read. The pair the first sealed stays.
    const scraper = scraperClient(env)!;
    const refresh = (request: Parameters<typeof scraper.openBankingToken>[0]) => scraper.openBankingToken(request);
    let firstDone!: () => void;
    const first = new Promise<void>((resolve) => (firstDone = resolve));
    const runs = await Promise.all([
      refreshConsents(env.DB, env.VAULT_MASTER_KEY, { refresh, leased: refreshLease(deps) }, now).finally(firstDone),
      refreshConsents(env.DB, env.VAULT_MASTER_KEY, { refresh, leased: (credential, work) => first.then(() => refreshLease(deps)(credential, work)) }, now),
    ]);
    expect(runs[1]!.ended).toBeGreaterThanOrEqual(1);
    const after = await shown();
    expect(after.refusal).toBeNull();
    expect(after.consent.refreshedAt).not.toBeNull();
    expect((await runJob(ws, { schema: "bank.accounts.cb.v1", params: {} })).kind).toBe("Succeeded");
  });

  it("fails a job on an expired consent with NO_VALID_CREDENTIAL, warns of its end, and a recovery session asks for consent again", async () => {
    const ws = await createWorkspace({ businessNumber: "1208800767" });
    const fintech = userByLogin("obuser1")!.accounts[1]!.fintechUseNum;
    const id = await consented(ws, "obuser1", [fintech]);
    // The consent ends in five days: the 7-day warning is due.
    await env.DB.prepare("UPDATE credentials SET consent = json_set(consent, '$.expiresAt', ?) WHERE id = ?").bind(new Date(Date.now() + 5 * DAY).toISOString(), id).run();
    await warnExpiringCertificates(env, Date.now());
    expect((await env.DB.prepare("SELECT expiry_warned_days AS warned FROM credentials WHERE id = ?").bind(id).first<Json>())!.warned).toBe(7);

    // Its token past its end and its refresh token one KFTC no longer knows: the job's one refresh is refused.
    await alterTokens(id, { expiresAt: new Date(Date.now() - DAY).toISOString(), refreshToken: "no-longer-known" });
    const job = await runJob(ws, { schema: "bank.accounts.cb.v1", params: {} });
    expect(job.kind).toBe("Failed");
    expect(job.error).toMatchObject({ code: "NO_VALID_CREDENTIAL", category: "CREDENTIAL", message: "유효한 자격 증명이 없습니다. 자격 증명을 다시 등록해 주세요." });
    expect(JSON.stringify(job)).not.toMatch(/open banking|expired at/);

    const recovery = await issue(ws, { recoverCredentialId: id });
    const { body } = await consent(recovery.sessionToken, "obuser1", { fintechs: [fintech] });
    expect(body).toMatchObject({ state: "CONNECTED" });
    const shown = await callJson<Json>(`/api/v1/registration-sessions/${recovery.sessionId}`, { key: ws.apiKey });
    expect(shown.body).toMatchObject({ status: "CONSUMED", credentialId: id });
    const restored = (await callJson<Json>(`/api/v1/credentials/${id}`, { key: ws.apiKey })).body;
    expect(restored.refusal).toBeNull();
    expect(Date.parse(restored.consent.expiresAt) - Date.now()).toBeGreaterThan(364 * DAY);
    expect((await runJob(ws, { schema: "bank.accounts.cb.v1", params: {} })).kind).toBe("Succeeded");
  });

  it("refreshes once when KFTC ends the access token before its time, seals the new pair, and the job succeeds", async () => {
    const ws = await createWorkspace({ businessNumber: "1208800767" });
    const fintech = userByLogin("obuser1")!.accounts[2]!.fintechUseNum;
    const id = await consented(ws, "obuser1", [fintech]);
    const before = await tokensOf(id);
    // KFTC answers O0003 while our clock says the token lives: the cron had no reason to refresh it.
    await switchToken(id, "end-access");
    const job = await runJob(ws, { schema: "bank.accounts.cb.v1", params: {} });
    expect(job.kind, JSON.stringify(job)).toBe("Succeeded");
    const after = await tokensOf(id);
    expect(after.accessToken).not.toBe(before.accessToken);
    expect(after.refreshToken).not.toBe(before.refreshToken);
    const shown = (await callJson<Json>(`/api/v1/credentials/${id}`, { key: ws.apiKey })).body;
    expect(shown.refusal).toBeNull();
    expect(shown.consent.refreshedAt).not.toBeNull();

    // Our own clock past the token's end, the cron not yet there: the job's refresh, not the end of the consent.
    await alterTokens(id, { expiresAt: new Date(Date.now() - 60_000).toISOString() });
    const second = await runJob(ws, { schema: "bank.accounts.cb.v1", params: {} });
    expect(second.kind, JSON.stringify(second)).toBe("Succeeded");
    expect((await tokensOf(id)).refreshToken).not.toBe(after.refreshToken);
  });

  it("keeps the tokens when KFTC refuses a refresh before the access token's end, and ends the consent only on a refusal after it", async () => {
    const ws = await createWorkspace({ businessNumber: "1208800767" });
    const id = await consented(ws, "obuser2", [userByLogin("obuser2")!.accounts[2]!.fintechUseNum]);
    const deps = pipelineDeps(env);
    const scraper = scraperClient(env)!;
    const ports = { refresh: (request: Parameters<typeof scraper.openBankingToken>[0]) => scraper.openBankingToken(request), leased: refreshLease(deps) };
    const sealed = async () => (await env.DB.prepare("SELECT sealed FROM credentials WHERE id = ?").bind(id).first<Json>())!.sealed;
    const sealedBefore = await sealed();
    await switchToken(id, "refuse-early-refresh");
    // Refreshing ahead, five days before the token's end: KFTC refuses.
    await endTokenAt(id, Date.now() + 5 * DAY);
    await refreshConsents(env.DB, env.VAULT_MASTER_KEY, ports, Date.now(), 100, "ahead");
    const kept = (await callJson<Json>(`/api/v1/credentials/${id}`, { key: ws.apiKey })).body;
    expect(kept.refusal).toBeNull();
    expect(kept.consent.refreshedAt).toBeNull();
    expect(await sealed()).toBe(sealedBefore);
    const row = (await env.DB.prepare("SELECT json_extract(consent, '$.earlyRefreshRefusedAt') AS refused FROM credentials WHERE id = ?").bind(id).first<Json>())!;
    expect(row.refused).not.toBeNull();
    // The tokens still read.
    expect((await runJob(ws, { schema: "bank.accounts.cb.v1", params: {} })).kind).toBe("Succeeded");
    // A run ahead again leaves it until its token has ended; then a refusal is the consent's end.
    await refreshConsents(env.DB, env.VAULT_MASTER_KEY, ports, Date.now() + DAY, 100, "ahead");
    expect(await sealed()).toBe(sealedBefore);
    expect((await callJson<Json>(`/api/v1/credentials/${id}`, { key: ws.apiKey })).body.refusal).toBeNull();
    await refreshConsents(env.DB, env.VAULT_MASTER_KEY, ports, Date.now() + 6 * DAY, 100, "ahead");
    expect((await callJson<Json>(`/api/v1/credentials/${id}`, { key: ws.apiKey })).body.refusal).toMatchObject({ code: "NO_VALID_CREDENTIAL" });
  });

  it("maps KFTC's failures to catalog codes, KFTC's words kept out of the job", async () => {
    const ws = await createWorkspace({ businessNumber: "1208800767" });
    const closed = accountOf("obfail", "closed");
    await consented(ws, "obfail", [closed.fintechUseNum]);
    const job = await runJob(ws, { schema: "bank.transactions.cb.v1", params: { dateRangeStart: "2025-03-01", dateRangeEnd: "2025-03-31" } });
    expect(job).toMatchObject({ kind: "Failed", error: { code: "INVALID_ACCOUNT_FOR_SERVICE" } });
    // The error is what a job says of the institution (its ids and times are random digits that may hold "415").
    expect(JSON.stringify(job.error)).not.toMatch(/해약|415|A0002/);
  });

  it("withdraws: deleting the credential erases its tokens and the accounts it named", async () => {
    const ws = await createWorkspace({ businessNumber: "1208800767" });
    const id = await consented(ws, "obuser2", [userByLogin("obuser2")!.accounts[1]!.fintechUseNum]);
    expect((await call(`/api/v1/credentials/${id}`, { method: "DELETE", key: ws.apiKey })).status).toBe(204);
    const row = await env.DB.prepare("SELECT status, sealed, identity, consent FROM credentials WHERE id = ?").bind(id).first<Json>();
    expect(row).toEqual({ status: "DELETED", sealed: null, identity: null, consent: null });
    const job = await callJson<Json>("/api/v1/data-jobs", { method: "POST", key: ws.apiKey, json: { providerCode: "openbanking", schema: "bank.accounts.cb.v1", params: {}, credentialId: id } });
    expect(job.body.code).toBe("CREDENTIAL_REVOKED");
  });
});

describe("Open Banking and a workspace whose owner has not confirmed their e-mail", () => {
  it("opens no consent at KFTC: refused as every real institution is, before a state is bound or KFTC's page named", async () => {
    const ws = await createWorkspace({ businessNumber: "1208800767" });
    // As sign-up leaves a workspace until its owner follows the mailed link.
    await env.DB.prepare("UPDATE workspaces SET sandbox_only = 1 WHERE id = ?").bind(ws.workspaceId).run();
    const session = await issue(ws);
    const started = await callJson<Json>("/connect/api/open-banking/authorizations", { method: "POST", headers: hostedUiHeaders(session.sessionToken), json: { providerCode: "openbanking" } });
    expect(started.status, JSON.stringify(started.body)).toBe(403);
    expect(started.body).toMatchObject({ code: "WORKSPACE_ACCESS_DENIED", message: expect.stringContaining("이메일 주소를 확인하기 전에는") });
    const row = await env.DB.prepare("SELECT consent_state_hash AS state FROM registration_sessions WHERE id = ?").bind(session.sessionId).first<{ state: string | null }>();
    expect(row!.state).toBeNull();
  });
});
