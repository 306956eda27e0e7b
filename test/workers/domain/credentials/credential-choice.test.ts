import { createScheduledController } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import worker from "../../../../worker/index";
import { sealCredential } from "../../../../worker/domain/vault/envelope";
import { issueJointCertificate } from "../../../../sandbox/certificates/issue";
import { callJson, createWorkspace, type TestWorkspace, withCapturedQueue } from "../../../support/workers/helpers";
import { asPartner, connectionTo, partnerWithConnection } from "../../../support/workers/partner-helpers";

type Json = Record<string, any>;
const BIZNO = "1208800767";
const OTHER_BIZNO = "2208162517";
const login = (loginId: string, extra: Json = {}) => ({ providerCode: "sandbox.bank", authMethod: "PROVIDER_LOGIN", fields: { loginId, password: "pass_good" }, ...extra });
const ACCOUNTS = { providerCode: "sandbox.bank", schema: "bank.accounts.cb.v1", params: {} };
const INVOICES = { schema: "taxportal.tax-invoices.sales.v1", params: { dateRangeStart: "2026-01-01", dateRangeEnd: "2026-01-31" } };

const register = (ws: TestWorkspace, json: Json) => callJson<Json>("/api/v1/credentials", { method: "POST", key: ws.apiKey, json });
// Which credential a job takes is settled at its creation: its plan message is captured, so no job of this file logs in
// behind the tests (the pipeline's own files run jobs to their end).
const createJob = (ws: TestWorkspace, json: Json, headers?: Headers) => callJson<Json>("/api/v1/data-jobs", { method: "POST", key: ws.apiKey, json, headers, env: withCapturedQueue().env });
const patch = (ws: TestWorkspace, id: string, json: Json) => callJson<Json>(`/api/v1/credentials/${id}`, { method: "PATCH", key: ws.apiKey, json });

async function certificateFields(idn = BIZNO) {
  const { certificate, privateKey, password } = await issueJointCertificate({ idn });
  return { certificate, privateKey, password };
}

describe("choosing the credential a job logs in with", () => {
  it("holds several logins for one provider: the first is the default, jobs without credentialId take it, a job may name another", async () => {
    const ws = await createWorkspace();
    const first = await register(ws, login("user_good", { label: "본점 계좌" }));
    const second = await register(ws, login("user_second"));
    expect([first.status, second.status]).toEqual([201, 201]);
    expect(first.body).toMatchObject({ label: "본점 계좌", isDefault: true, status: "ACTIVE" });
    expect(second.body).toMatchObject({ label: "us*******nd", isDefault: false, status: "ACTIVE" });

    const implicit = await createJob(ws, ACCOUNTS);
    const named = await createJob(ws, { ...ACCOUNTS, credentialId: second.body.id });
    expect(implicit.body.credentialId).toBe(first.body.id);
    expect(named.body.credentialId).toBe(second.body.id);
    const filtered = await callJson<Json>(`/api/v1/data-jobs?credentialId=${second.body.id}`, { key: ws.apiKey });
    expect(filtered.body.items.map((j: Json) => [j.id, j.credentialId])).toEqual([[named.body.id, second.body.id]]);
  });

  it("answers 409 CREDENTIAL_PROVIDER_DUPLICATED when several remain without a default, until one is made default", async () => {
    const ws = await createWorkspace();
    const first = (await register(ws, login("user_good"))).body;
    const second = (await register(ws, login("user_second"))).body;
    expect((await patch(ws, first.id, { isDefault: false })).body.isDefault).toBe(false);
    const refused = await createJob(ws, ACCOUNTS);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: "CREDENTIAL_PROVIDER_DUPLICATED", requestId: expect.any(String) });
    expect(refused.body.message).toContain("2개");
    expect((await env.DB.prepare("SELECT count(*) AS n FROM jobs WHERE workspace_id = ?").bind(ws.workspaceId).first<{ n: number }>())!.n).toBe(0);

    const made = await patch(ws, second.id, { isDefault: true, label: "보조 계좌" });
    expect(made.body).toMatchObject({ id: second.id, isDefault: true, label: "보조 계좌" });
    expect((await createJob(ws, ACCOUNTS)).body.credentialId).toBe(second.id);
    // Making another the default takes the role from the one that had it.
    await patch(ws, first.id, { isDefault: true });
    const listed = (await callJson<Json>("/api/v1/credentials?providerCode=sandbox.bank", { key: ws.apiKey })).body.items;
    expect(listed.map((c: Json) => [c.id, c.isDefault])).toEqual([[second.id, false], [first.id, true]]);
  });

  it("says why a named credential cannot serve the job, storing nothing", async () => {
    const ws = await createWorkspace({ businessNumber: BIZNO });
    const bank = (await register(ws, login("user_good"))).body;
    const replaced = (await register(ws, login("user_other"))).body;
    await register(ws, login("user_other"));
    const deleted = (await register(ws, login("user_gone"))).body;
    await callJson(`/api/v1/credentials/${deleted.id}`, { method: "DELETE", key: ws.apiKey });
    const jobCount = async () => (await env.DB.prepare("SELECT count(*) AS n FROM jobs WHERE workspace_id = ?").bind(ws.workspaceId).first<{ n: number }>())!.n;
    const jobsBefore = await jobCount();
    const cases: [string, Json, number, string][] = [
      ["an id nobody registered", { ...ACCOUNTS, credentialId: crypto.randomUUID() }, 404, "CREDENTIAL_NOT_FOUND"],
      ["a deleted credential", { ...ACCOUNTS, credentialId: deleted.id }, 409, "CREDENTIAL_REVOKED"],
      ["a superseded credential", { ...ACCOUNTS, credentialId: replaced.id }, 409, "CREDENTIAL_SUPERSEDED"],
      ["another provider's credential", { providerCode: "sandbox.card", schema: "card.cards.corp.v1", params: {}, credentialId: bank.id }, 400, "PROVIDER_CODE_MISMATCH"],
    ];
    for (const [what, body, status, code] of cases) {
      const res = await createJob(ws, body);
      expect([what, res.status, res.body.code, res.body.fieldErrors?.[0]?.field]).toEqual([what, status, code, "body.credentialId"]);
    }
    const other = await createWorkspace();
    expect((await createJob(other, { ...ACCOUNTS, credentialId: bank.id })).body.code).toBe("CREDENTIAL_NOT_FOUND");
    expect(await jobCount()).toBe(jobsBefore);
  });

  it("collects only the schemas the credential's holder consented to, whichever way the credential was chosen", async () => {
    const ws = await createWorkspace({ businessNumber: BIZNO });
    const unknown = await register(ws, login("user_good", { schemas: ["bank.transactions.cb.v1", "card.cards.corp.v1"] }));
    expect([unknown.status, unknown.body.code, unknown.body.fieldErrors?.[0]?.field]).toEqual([400, "INVALID_PARAM_FORMAT", "body.schemas.1"]);
    const consented = await register(ws, login("user_good", { schemas: ["bank.transactions.cb.v1", "bank.transactions.cb.v1"] }));
    expect(consented.body.schemas).toEqual(["bank.transactions.cb.v1"]);

    for (const body of [ACCOUNTS, { ...ACCOUNTS, credentialId: consented.body.id }]) {
      const refused = await createJob(ws, body);
      expect([refused.status, refused.body.code, refused.body.fieldErrors?.[0]?.field]).toEqual([422, "CREDENTIAL_SCOPE_NOT_SUPPORTED", "body.schema"]);
      expect(refused.body.message).toContain("bank.transactions.cb.v1");
    }
    const transactions = { providerCode: "sandbox.bank", schema: "bank.transactions.cb.v1", params: { dateRangeStart: "2026-01-01", dateRangeEnd: "2026-01-31" } };
    const taken = await createJob(ws, transactions);
    expect([taken.status, taken.body.credentialId]).toEqual([201, consented.body.id]);

    // A global certificate's consent may name any schema of the providers taking certificates.
    const certificate = await register(ws, { authMethod: "CERTIFICATE", fields: await certificateFields(), schemas: ["taxportal.tax-invoices.sales.v1"] });
    expect(certificate.body).toMatchObject({ providerCode: null, schemas: ["taxportal.tax-invoices.sales.v1"] });
    expect((await createJob(ws, { providerCode: "sandbox.taxportal", ...INVOICES })).status).toBe(201);
    const card = await createJob(ws, { providerCode: "sandbox.card", schema: "card.cards.corp.v1", params: {}, credentialId: certificate.body.id });
    expect([card.status, card.body.code]).toEqual([422, "CREDENTIAL_SCOPE_NOT_SUPPORTED"]);
  });

  it("binds an Idempotency-Key to the credential named: another credential under the same key is a conflict", async () => {
    const ws = await createWorkspace();
    const first = (await register(ws, login("user_good"))).body;
    const second = (await register(ws, login("user_second"))).body;
    const headers = () => new Headers({ "Idempotency-Key": "nightly-accounts" });
    const once = await createJob(ws, { ...ACCOUNTS, credentialId: second.id }, headers());
    const again = await createJob(ws, { ...ACCOUNTS, credentialId: second.id }, headers());
    expect(again.body.id).toBe(once.body.id);
    const other = await createJob(ws, { ...ACCOUNTS, credentialId: first.id }, headers());
    expect([other.status, other.body.code]).toEqual([409, "IDEMPOTENCY_KEY_CONFLICT"]);
  });
});

describe("credentials whose secret this worker cannot open", () => {
  it("waits for a rollout sealing under a newer master key, and reports a secret whose key left the keyring", async () => {
    const ws = await createWorkspace();
    const credential = (await register(ws, login("user_good"))).body;
    const sealedUnder = (version: number) => env.DB.prepare("UPDATE credentials SET sealed = json_set(sealed, '$.kv', ?) WHERE id = ?").bind(version, credential.id).run();
    await sealedUnder(2);
    const rollout = await createJob(ws, ACCOUNTS);
    expect([rollout.status, rollout.body.code, rollout.headers.get("Retry-After")]).toEqual([409, "CREDENTIAL_NATIVE_REWRAP_IN_PROGRESS", "60"]);
    await sealedUnder(0);
    const lost = await createJob(ws, ACCOUNTS);
    expect([lost.status, lost.body.code]).toEqual([500, "CONNECTION_CREDENTIAL_UNREADABLE"]);
    expect((await env.DB.prepare("SELECT count(*) AS n FROM jobs WHERE workspace_id = ?").bind(ws.workspaceId).first<{ n: number }>())!.n).toBe(0);
    // Registering the same login again replaces the secret nobody can open.
    expect((await register(ws, login("user_good"))).status).toBe(201);
    expect((await createJob(ws, ACCOUNTS)).status).toBe(201);
  });
});

describe("registering the same login or certificate", () => {
  it("supersedes only the credential with the same login, keeping its default role", async () => {
    const ws = await createWorkspace();
    const first = (await register(ws, login("user_good"))).body;
    const second = (await register(ws, login("user_second"))).body;
    const again = await register(ws, login("user_good"));
    expect(again.body.isDefault).toBe(true);
    const listed = (await callJson<Json>("/api/v1/credentials", { key: ws.apiKey })).body.items;
    expect(listed.map((c: Json) => [c.id, c.status, c.isDefault])).toEqual([
      [again.body.id, "ACTIVE", true],
      [second.id, "ACTIVE", false],
      [first.id, "SUPERSEDED", false],
    ]);
  });

  it("holds a certificate for every provider taking certificates when registered without a provider", async () => {
    const ws = await createWorkspace({ businessNumber: BIZNO });
    const fields = await certificateFields();
    const global = await register(ws, { authMethod: "CERTIFICATE", fields });
    expect(global.status).toBe(201);
    expect(global.body).toMatchObject({ providerCode: null, authMethod: "CERTIFICATE", isDefault: true, businessNumber: BIZNO });

    for (const providerCode of ["sandbox.taxportal", "hometax"]) {
      const job = await createJob(ws, { providerCode, ...INVOICES });
      expect([providerCode, job.status, job.body.kind, job.body.credentialId]).toEqual([providerCode, 201, "InProgress", global.body.id]);
    }
    const bank = await createJob(ws, { ...ACCOUNTS, credentialId: global.body.id });
    expect([bank.status, bank.body.code]).toEqual([422, "CREDENTIAL_INSUFFICIENT_FOR_PROVIDER"]);
    // The bank has no credential of its own, and a global certificate cannot log in there.
    expect((await createJob(ws, ACCOUNTS)).body).toMatchObject({ kind: "Failed", credentialId: null, error: { code: "CREDENTIAL_NOT_FOUND" } });

    // The same certificate once more for one provider would hold it twice.
    const twice = await register(ws, { providerCode: "sandbox.taxportal", authMethod: "CERTIFICATE", fields });
    expect([twice.status, twice.body.code]).toEqual([409, "CREDENTIAL_ALREADY_EXISTS"]);
    // A provider's own credential goes before a global certificate.
    const own = (await register(ws, { providerCode: "sandbox.taxportal", authMethod: "CERTIFICATE", fields: await certificateFields() })).body;
    expect((await createJob(ws, { providerCode: "sandbox.taxportal", ...INVOICES })).body.credentialId).toBe(own.id);

    const idLogin = await register(ws, { authMethod: "PROVIDER_LOGIN", fields: { loginId: "user_good", password: "pass_good" } });
    expect([idLogin.status, idLogin.body.code, idLogin.body.fieldErrors[0].field]).toEqual([400, "MISSING_PARAMETER", "body.providerCode"]);
  });

  it("registers another business's certificate for that business, checked against its number", async () => {
    const firm = await createWorkspace({ businessNumber: BIZNO });
    const fields = await certificateFields(OTHER_BIZNO);
    const unnamed = await register(firm, { providerCode: "hometax", authMethod: "CERTIFICATE", fields });
    expect([unnamed.status, unnamed.body.code]).toEqual([422, "CERT_BIZNO_MISMATCH"]);
    const named = await register(firm, { providerCode: "hometax", authMethod: "CERTIFICATE", fields, businessNumber: "220-81-62517", label: "고객사 B" });
    expect(named.status).toBe(201);
    expect(named.body).toMatchObject({ businessNumber: OTHER_BIZNO, label: "고객사 B" });
  });
});

describe("partners choosing the business of a job", () => {
  it("takes a connectionId instead of X-SVC-Business, and holds both selectors to their rules", async () => {
    const partner = await partnerWithConnection(BIZNO);
    const connection = await connectionTo(partner, BIZNO);
    const body = { ...ACCOUNTS };
    const byConnection = await createJob(partner, { ...body, connectionId: connection.id }, asPartner(partner.apiKey).headers);
    expect(byConnection.body).toMatchObject({ kind: "Failed", error: { code: "CREDENTIAL_NOT_FOUND" } });
    expect((await env.DB.prepare("SELECT workspace_id AS w FROM jobs WHERE id = ?").bind(byConnection.body.id).first<{ w: string }>())!.w).toBe(connection.workspaceId);

    const own = await createWorkspace();
    const refusals: [string, TestWorkspace, Json, Headers | undefined, number, string][] = [
      ["both selectors of a credential", partner, { ...body, connectionId: connection.id, credentialId: crypto.randomUUID() }, undefined, 400, "CONNECTION_AND_CREDENTIAL_ID_EXCLUSIVE"],
      ["a partner naming no business", partner, body, undefined, 400, "CONNECTION_REQUIRED_FOR_PARTNER"],
      ["a partner naming a credential but no business", partner, { ...body, credentialId: crypto.randomUUID() }, undefined, 400, "CREDENTIAL_ID_NOT_ALLOWED"],
      ["a connection of nobody's", partner, { ...body, connectionId: crypto.randomUUID() }, undefined, 404, "CONNECTION_NOT_FOUND"],
      ["a header and a connection that disagree", partner, { ...body, connectionId: crypto.randomUUID() }, asPartner(partner.apiKey, BIZNO).headers, 400, "INVALID_PARAM_FORMAT"],
      ["a workspace acting for itself naming a connection", own, { ...body, connectionId: connection.id }, undefined, 400, "CONNECTION_NOT_ALLOWED_FOR_NON_PARTNER"],
    ];
    for (const [what, ws, json, headers, status, code] of refusals) {
      const res = await createJob(ws, json, headers);
      expect([what, res.status, res.body.code]).toEqual([what, status, code]);
    }
    await callJson(`/api/v1/connections/${connection.id}`, { method: "DELETE", key: partner.apiKey });
    expect((await createJob(partner, { ...body, connectionId: connection.id })).body.code).toBe("CONNECTION_REVOKED");
  });
});

describe("credentials registered before identities", () => {
  it("hold registrations with 409 until the cron reads their identity, then are superseded by the same login", async () => {
    const ws = await createWorkspace();
    const id = crypto.randomUUID();
    const legacy = { authMethod: "PROVIDER_LOGIN" as const, loginId: "user_good", password: "pass_good" };
    await env.DB.prepare("INSERT INTO credentials (id, workspace_id, provider_code, auth_method, status, is_default, sealed, created_at) VALUES (?, ?, 'sandbox.bank', 'PROVIDER_LOGIN', 'ACTIVE', 1, ?, ?)")
      .bind(id, ws.workspaceId, await sealCredential(env.VAULT_MASTER_KEY, { credentialId: id, workspaceId: ws.workspaceId, providerCode: "sandbox.bank" }, legacy), Date.now())
      .run();
    const waiting = await register(ws, login("user_good"));
    expect([waiting.status, waiting.body.code, waiting.headers.get("Retry-After")]).toEqual([409, "CREDENTIAL_CERTIFICATE_SERIAL_BACKFILL_IN_PROGRESS", "60"]);
    // Jobs do not wait: they take the credential as before.
    expect((await createJob(ws, ACCOUNTS)).body.credentialId).toBe(id);

    await worker.scheduled(createScheduledController(), env);
    const again = await register(ws, login("user_good"));
    expect(again.status).toBe(201);
    const statuses = (await callJson<Json>("/api/v1/credentials", { key: ws.apiKey })).body.items.map((c: Json) => [c.id, c.status]);
    expect(statuses).toEqual([[again.body.id, "ACTIVE"], [id, "SUPERSEDED"]]);
  });
});
