import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { openActiveCredential } from "../../../../worker/domain/credentials/job-credential";
import { openCredential, sealCredential } from "../../../../worker/domain/vault/envelope";
import { addCredential, callJson, createWorkspace, TX_JOB } from "../../../support/workers/helpers";

type Json = Record<string, any>;
const LOGIN = { providerCode: "sandbox.bank", authMethod: "PROVIDER_LOGIN", fields: { loginId: "user_good", password: "pass_good" } };

const create = (key: string, body: unknown) => callJson<Json>("/api/v1/credentials", { method: "POST", key, json: body });

describe("credentials API", () => {
  it("stores a credential only sealed and never shows its secret", async () => {
    const ws = await createWorkspace();
    const res = await create(ws.apiKey, LOGIN);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ providerCode: "sandbox.bank", authMethod: "PROVIDER_LOGIN", status: "ACTIVE", label: "us*****od" });
    const row = await env.DB.prepare("SELECT * FROM credentials WHERE id = ?").bind(res.body.id).first<Record<string, string>>();
    expect(JSON.stringify(row)).not.toContain("pass_good");
    expect(JSON.stringify(row)).not.toContain("user_good");
    expect(await openActiveCredential(env.DB, env.VAULT_MASTER_KEY, res.body.id)).toEqual({ authMethod: "PROVIDER_LOGIN", loginId: "user_good", password: "pass_good" });
    const list = await callJson<Json>("/api/v1/credentials", { key: ws.apiKey });
    const one = await callJson<Json>(`/api/v1/credentials/${res.body.id}`, { key: ws.apiKey });
    for (const body of [list.body, one.body]) expect(JSON.stringify(body)).not.toContain("pass_good");
    expect(one.body).toEqual(res.body);
  });

  it("keeps an optional second factor when given, drops it when blank, and checks its pattern", async () => {
    const ws = await createWorkspace();
    const bad = await create(ws.apiKey, { ...LOGIN, fields: { ...LOGIN.fields, secondFactor: "12345" } });
    expect(bad.body).toMatchObject({ code: "INVALID_CREDENTIAL_FORMAT", fieldErrors: [{ field: "body.fields.secondFactor" }] });
    const withFactor = await create(ws.apiKey, { ...LOGIN, fields: { ...LOGIN.fields, secondFactor: "9001011" } });
    expect(await openActiveCredential(env.DB, env.VAULT_MASTER_KEY, withFactor.body.id)).toEqual({ authMethod: "PROVIDER_LOGIN", loginId: "user_good", password: "pass_good", secondFactor: "9001011" });
    const other = await createWorkspace();
    const blank = await create(other.apiKey, { ...LOGIN, fields: { ...LOGIN.fields, secondFactor: "" } });
    expect(await openActiveCredential(env.DB, env.VAULT_MASTER_KEY, blank.body.id)).not.toHaveProperty("secondFactor");
  });

  it("keeps one live credential per provider: a second one supersedes the first instead of CREDENTIAL_PROVIDER_DUPLICATED", async () => {
    const ws = await createWorkspace();
    const first = await create(ws.apiKey, LOGIN);
    const again = await create(ws.apiKey, LOGIN);
    expect(again.status).toBe(201);
    const list = await callJson<Json>("/api/v1/credentials", { key: ws.apiKey });
    expect(list.body.items.map((c: Json) => [c.id, c.status])).toEqual([
      [again.body.id, "ACTIVE"],
      [first.body.id, "SUPERSEDED"],
    ]);
  });

  it.each([
    ["an unknown provider", { ...LOGIN, providerCode: "nope" }, 400, "INVALID_PROVIDER_CODE"],
    ["an unknown auth method", { ...LOGIN, authMethod: "SMS" }, 400, "UNSUPPORTED_AUTH_METHOD"],
    ["a certificate for an ID-login provider", { ...LOGIN, authMethod: "CERTIFICATE", fields: {} }, 400, "PROVIDER_DOES_NOT_ACCEPT_CERT_LOGIN"],
    ["a missing password", { ...LOGIN, fields: { loginId: "user_good" } }, 400, "MISSING_CREDENTIAL_FIELD"],
    ["a login id off the pattern", { ...LOGIN, fields: { loginId: "한글아이디", password: "pass_good" } }, 400, "INVALID_CREDENTIAL_FORMAT"],
    ["a field the method does not have", { ...LOGIN, fields: { ...LOGIN.fields, pin: "1234" } }, 400, "INVALID_CREDENTIAL_FORMAT"],
  ])("rejects %s", async (_name, body, status, code) => {
    const ws = await createWorkspace();
    const res = await create(ws.apiKey, body);
    expect(res.status).toBe(status);
    expect(res.body.code).toBe(code);
    expect(JSON.stringify(res.body)).not.toContain("pass_good");
  });

  it("deletes a credential unless a job runs on it; later jobs then fail CREDENTIAL_NOT_FOUND", async () => {
    const ws = await createWorkspace();
    const credential = (await create(ws.apiKey, LOGIN)).body;
    const job = await callJson<Json>("/api/v1/data-jobs", { method: "POST", key: ws.apiKey, json: TX_JOB });
    await env.DB.prepare("UPDATE jobs SET status = 'RUNNING' WHERE id = ?").bind(job.body.id).run();
    const busy = await callJson<Json>(`/api/v1/credentials/${credential.id}`, { method: "DELETE", key: ws.apiKey });
    expect(busy.status).toBe(409);
    expect(busy.body.code).toBe("CREDENTIAL_HAS_ACTIVE_CONNECTIONS");
    await env.DB.prepare("UPDATE jobs SET status = 'SUCCEEDED' WHERE id = ?").bind(job.body.id).run();
    expect((await callJson(`/api/v1/credentials/${credential.id}`, { method: "DELETE", key: ws.apiKey })).status).toBe(204);
    expect((await callJson<Json>(`/api/v1/credentials/${credential.id}`, { key: ws.apiKey })).body.code).toBe("CREDENTIAL_NOT_FOUND");
    const later = await callJson<Json>("/api/v1/data-jobs", { method: "POST", key: ws.apiKey, json: TX_JOB });
    expect(later.body).toMatchObject({ kind: "Failed", error: { code: "CREDENTIAL_NOT_FOUND" } });
    expect((await create(ws.apiKey, LOGIN)).status).toBe(201);
  });

  it("erases a deleted credential's sealed secret, keeping only what an audit needs", async () => {
    const ws = await createWorkspace();
    const credential = (await create(ws.apiKey, LOGIN)).body;
    expect((await callJson(`/api/v1/credentials/${credential.id}`, { method: "DELETE", key: ws.apiKey })).status).toBe(204);
    const row = await env.DB.prepare("SELECT * FROM credentials WHERE id = ?").bind(credential.id).first<Json>();
    expect(row).toEqual({
      id: credential.id,
      workspace_id: ws.workspaceId,
      provider_code: "sandbox.bank",
      auth_method: "PROVIDER_LOGIN",
      // Neither the login id's hash nor the default role outlive the credential; its business stays for audit.
      identity: null,
      is_default: 0,
      business_number: null,
      known_targets: null,
      // Registered without a check here (CREDENTIAL_CHECKS=off in this project), and never warned of an expiry.
      check_state: null,
      check_id: null,
      check_requested_at: null,
      check_error: null,
      checked_at: null,
      expiry_warned_days: null,
      status: "DELETED",
      sealed: null,
      label: "us*****od",
      schemas: null,
      // A login has no certificate; a certificate's face (subject, issuer, serial, validity) is public and stays for audit.
      certificate: null,
      // An Open Banking consent's face (the accounts it named) is erased with it; a login never had one.
      consent: null,
      // What the workspace consented to when it registered its own login stays, as the audit of that consent.
      consent_record: expect.any(String),
      revoked_reason: "DELETED_BY_WORKSPACE",
      invalid_reason: null,
      invalidated_at: null,
      superseded_by: null,
      superseded_at: null,
      created_at: Date.parse(credential.createdAt),
      deleted_at: expect.any(Number),
    });
    expect(JSON.parse(row!.consent_record)).toMatchObject({ givenAt: credential.consentRecord.givenAt, expiresAt: credential.consentRecord.expiresAt, textVersion: null, withdrawnAt: null });
  });

  it("hides other workspaces' credentials", async () => {
    const owner = await createWorkspace();
    const other = await createWorkspace();
    const credential = (await create(owner.apiKey, LOGIN)).body;
    for (const method of ["GET", "DELETE"]) {
      const res = await callJson<Json>(`/api/v1/credentials/${credential.id}`, { method, key: other.apiKey });
      expect(res.status).toBe(404);
      expect(res.body.code).toBe("CREDENTIAL_NOT_FOUND");
    }
  });
});

describe("the vault's binding of a sealed secret to its row", () => {
  const LOGIN_SECRET = { authMethod: "PROVIDER_LOGIN", loginId: "user_good", password: "pass_good" } as const;
  const CONTEXT = { credentialId: crypto.randomUUID(), workspaceId: crypto.randomUUID(), providerCode: "sandbox.bank" };

  it("opens a sealed secret only under the credential id, workspace and provider it was sealed for", async () => {
    const sealed = await sealCredential(env.VAULT_MASTER_KEY, CONTEXT, LOGIN_SECRET);
    expect(await openCredential(env.VAULT_MASTER_KEY, CONTEXT, sealed)).toEqual(LOGIN_SECRET);
    for (const moved of [
      { ...CONTEXT, credentialId: crypto.randomUUID() },
      { ...CONTEXT, workspaceId: crypto.randomUUID() },
      { ...CONTEXT, providerCode: "sandbox.taxportal" },
      // Parts shifted across the separators of a naive joined string.
      { credentialId: `${CONTEXT.credentialId}|${CONTEXT.workspaceId}`, workspaceId: "", providerCode: CONTEXT.providerCode },
    ]) {
      await expect(openCredential(env.VAULT_MASTER_KEY, moved, sealed)).rejects.toThrow();
    }
    // Claiming the older, id-only format does not loosen the binding either.
    await expect(openCredential(env.VAULT_MASTER_KEY, { ...CONTEXT, workspaceId: "elsewhere" }, JSON.stringify({ ...JSON.parse(sealed), v: 1 }))).rejects.toThrow();
  });

  it("still opens a secret sealed before the workspace and provider were bound", async () => {
    // Sealed by the vault's first format (additional data: the credential id alone) under the test master key.
    const v1 =
      '{"v":1,"kv":1,"dk":"mCO5zcv5jnCnj8DQW9QnWpxogC9SC-67hmdVTHS6Nrsfe3eSr7LxdoRuw73Pm3boW3t_jG2VPZcU4z7x","ct":"vtP1QcrXZH-yqgXSNXX3GAP-gFf0QnpZfTaufXkda39CNNrR19Ees1fKYat5qmq3HRIR0-5sYvZk7iNZ5pww6YLCrVrBKj_lhQk3uNva3PBojMvbjBpLIK6_mv1vhOmKwlbQJCN73WU"}';
    const context = { credentialId: "00000000-0000-4000-8000-0000000000c1", workspaceId: "any", providerCode: "sandbox.bank" };
    expect(await openCredential(env.VAULT_MASTER_KEY, context, v1)).toEqual(LOGIN_SECRET);
    await expect(openCredential(env.VAULT_MASTER_KEY, { ...context, credentialId: crypto.randomUUID() }, v1)).rejects.toThrow();
  });

  it("does not open a credential whose row was moved to another workspace or provider", async () => {
    const ws = await createWorkspace();
    const other = await createWorkspace();
    const id = await addCredential(ws.workspaceId);
    expect(await openActiveCredential(env.DB, env.VAULT_MASTER_KEY, id)).toMatchObject({ password: "pass_good" });
    await env.DB.prepare("UPDATE credentials SET workspace_id = ? WHERE id = ?").bind(other.workspaceId, id).run();
    await expect(openActiveCredential(env.DB, env.VAULT_MASTER_KEY, id)).rejects.toThrow();
    await env.DB.prepare("UPDATE credentials SET workspace_id = ?, provider_code = 'sandbox.taxportal' WHERE id = ?").bind(ws.workspaceId, id).run();
    await expect(openActiveCredential(env.DB, env.VAULT_MASTER_KEY, id)).rejects.toThrow();
  });
});
