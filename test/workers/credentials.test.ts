import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { openCredential } from "../../worker/vault/envelope";
import { callJson, createWorkspace, TX_JOB } from "./helpers";

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
    expect(await openCredential(env.VAULT_MASTER_KEY, res.body.id, row!.sealed!)).toEqual({ authMethod: "PROVIDER_LOGIN", loginId: "user_good", password: "pass_good" });
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
    const row = await env.DB.prepare("SELECT sealed FROM credentials WHERE id = ?").bind(withFactor.body.id).first<{ sealed: string }>();
    expect(await openCredential(env.VAULT_MASTER_KEY, withFactor.body.id, row!.sealed)).toEqual({ authMethod: "PROVIDER_LOGIN", loginId: "user_good", password: "pass_good", secondFactor: "9001011" });
    const other = await createWorkspace();
    const blank = await create(other.apiKey, { ...LOGIN, fields: { ...LOGIN.fields, secondFactor: "" } });
    const blankRow = await env.DB.prepare("SELECT sealed FROM credentials WHERE id = ?").bind(blank.body.id).first<{ sealed: string }>();
    expect(await openCredential(env.VAULT_MASTER_KEY, blank.body.id, blankRow!.sealed)).not.toHaveProperty("secondFactor");
  });

  it("refuses a second credential for the same provider with CREDENTIAL_PROVIDER_DUPLICATED", async () => {
    const ws = await createWorkspace();
    await create(ws.apiKey, LOGIN);
    const again = await create(ws.apiKey, LOGIN);
    expect(again.status).toBe(409);
    expect(again.body.code).toBe("CREDENTIAL_PROVIDER_DUPLICATED");
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
