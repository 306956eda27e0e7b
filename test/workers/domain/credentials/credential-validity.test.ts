import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createJob } from "../../../../worker/domain/jobs/create";
import { openActiveCredential } from "../../../../worker/domain/credentials/job-credential";
import { sealCredential } from "../../../../worker/domain/vault/envelope";
import { addCredential, callJson, createWorkspace, withCapturedQueue } from "../../../support/workers/helpers";
import { harness, jobRow, RANGE } from "../../../support/workers/pipeline-harness";

/** Creates a transactions job on the workspace's credential and runs it to its end on the real sandbox bank. */
async function runJob(workspaceId: string, h = harness()) {
  const queue = withCapturedQueue();
  const job = await createJob(queue.env, workspaceId, { providerCode: "sandbox.bank", schema: "bank.transactions.cb.v1", params: RANGE });
  h.queued.push(...queue.sent);
  await h.drain();
  return jobRow(job.id);
}

describe("a credential the institution refused", () => {
  it("is marked invalid after LOGIN_FAILED with its secret erased, and later jobs fail with that refusal (LOGIN_FAILED) without logging in", async () => {
    const ws = await createWorkspace();
    const credentialId = await addCredential(ws.workspaceId, "sandbox.bank", { authMethod: "PROVIDER_LOGIN", loginId: "user_good", password: "wrong_password" });
    const first = await runJob(ws.workspaceId);
    expect(first!.status).toBe("FAILED");
    expect(JSON.parse(first!.error).code).toBe("LOGIN_FAILED");
    const marked = await env.DB.prepare("SELECT invalid_reason, sealed FROM credentials WHERE id = ?").bind(credentialId).first<{ invalid_reason: string; sealed: unknown }>();
    expect(marked).toEqual({ invalid_reason: "LOGIN_FAILED", sealed: null });
    const shown = await callJson(`/api/v1/credentials/${credentialId}`, { key: ws.apiKey });
    expect(shown.body).toMatchObject({ status: "ACTIVE", refusal: { code: "LOGIN_FAILED", at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/) } });

    const secondRun = harness();
    const second = await runJob(ws.workspaceId, secondRun);
    expect(secondRun.logins()).toBe(0);
    expect(second!.status).toBe("FAILED");
    expect(JSON.parse(second!.error)).toMatchObject({ code: "LOGIN_FAILED", category: "CREDENTIAL", retryable: false });
  });

  it("is marked invalid after LOGIN_LOCKED too, and later jobs say the account is locked (unlock at the bank), not to register again", async () => {
    const ws = await createWorkspace();
    const credentialId = await addCredential(ws.workspaceId, "sandbox.bank", { authMethod: "PROVIDER_LOGIN", loginId: "user_good", password: "error_LOGIN_LOCKED" });
    const first = await runJob(ws.workspaceId);
    expect(JSON.parse(first!.error).code).toBe("LOGIN_LOCKED");
    const marked = await env.DB.prepare("SELECT invalid_reason, sealed FROM credentials WHERE id = ?").bind(credentialId).first<{ invalid_reason: string; sealed: unknown }>();
    expect(marked).toEqual({ invalid_reason: "LOGIN_LOCKED", sealed: null });
    const later = harness();
    const again = JSON.parse((await runJob(ws.workspaceId, later))!.error);
    expect(later.logins()).toBe(0);
    expect(again).toMatchObject({ code: "LOGIN_LOCKED", category: "CREDENTIAL", retryable: false, message: expect.stringContaining("기관에서 잠금을 해제한 뒤") });
  });

  it("keeps a secret its holder entered again while the institution was refusing the one before", async () => {
    const ws = await createWorkspace();
    const credentialId = await addCredential(ws.workspaceId, "sandbox.bank", { authMethod: "PROVIDER_LOGIN", loginId: "user_good", password: "wrong_password" });
    const recovered = await sealCredential(env.VAULT_MASTER_KEY, { credentialId, workspaceId: ws.workspaceId, providerCode: "sandbox.bank" }, { authMethod: "PROVIDER_LOGIN", loginId: "user_good", password: "pass_good" });
    const h = harness();
    const scraperFor = h.deps.scraperFor;
    // The real scraper and bank refuse the old password; the holder's recovery writes the new one before the refusal is handled.
    h.deps.scraperFor = (provider) => {
      const scraper = scraperFor(provider);
      return {
        openSession: async (...args) => {
          try {
            return await scraper.openSession(...args);
          } finally {
            await env.DB.prepare("UPDATE credentials SET sealed = ? WHERE id = ?").bind(recovered, credentialId).run();
          }
        },
        ready: (...args) => scraper.ready(...args),
        targets: (...args) => scraper.targets(...args),
        collect: (...args) => scraper.collect(...args),
        closeSession: (...args) => scraper.closeSession(...args),
      };
    };
    expect(JSON.parse((await runJob(ws.workspaceId, h))!.error).code).toBe("LOGIN_FAILED");
    const kept = await env.DB.prepare("SELECT invalid_reason, sealed FROM credentials WHERE id = ?").bind(credentialId).first<{ invalid_reason: string | null; sealed: string }>();
    expect(kept).toEqual({ invalid_reason: null, sealed: recovered });
    expect(await openActiveCredential(env.DB, env.VAULT_MASTER_KEY, credentialId)).toMatchObject({ loginId: "user_good", password: "pass_good" });
  });

  it("stays valid after a transient login failure", async () => {
    const ws = await createWorkspace();
    const credentialId = await addCredential(ws.workspaceId, "sandbox.bank", { authMethod: "PROVIDER_LOGIN", loginId: "user_good", password: "error_LOGIN_TRANSIENT" });
    expect(JSON.parse((await runJob(ws.workspaceId))!.error).code).toBe("LOGIN_TRANSIENT");
    const row = await env.DB.prepare("SELECT invalid_reason FROM credentials WHERE id = ?").bind(credentialId).first<{ invalid_reason: string | null }>();
    expect(row!.invalid_reason).toBeNull();
    expect((await callJson(`/api/v1/credentials/${credentialId}`, { key: ws.apiKey })).body).toMatchObject({ refusal: null });
  });

  it("is usable again once deleted and registered anew", async () => {
    const ws = await createWorkspace();
    const refused = await addCredential(ws.workspaceId, "sandbox.bank", { authMethod: "PROVIDER_LOGIN", loginId: "user_good", password: "wrong_password" });
    await runJob(ws.workspaceId);
    expect((await callJson(`/api/v1/credentials/${refused}`, { method: "DELETE", key: ws.apiKey })).status).toBe(204);
    const again = await callJson("/api/v1/credentials", { method: "POST", key: ws.apiKey, json: { providerCode: "sandbox.bank", authMethod: "PROVIDER_LOGIN", fields: { loginId: "user_good", password: "pass_good" } } });
    expect(again.status).toBe(201);
    expect((await runJob(ws.workspaceId))!.status).toBe("SUCCEEDED");
  });
});

describe("a certificate past its validity", () => {
  it("refuses a new job with 409 CREDENTIAL_EXPIRED and stores nothing, while a live certificate's job is created", async () => {
    const ws = await createWorkspace({ businessNumber: "1208800767" });
    const credentialId = await addCredential(ws.workspaceId, "sandbox.taxportal");
    const face = (notAfter: string) => JSON.stringify({ subject: "CN=x", issuer: "CN=ca", serialNumber: "01", notBefore: "2024-01-01T00:00:00.000Z", notAfter, commonName: "x" });
    const create = () => callJson<Record<string, any>>("/api/v1/data-jobs", { method: "POST", key: ws.apiKey, json: { providerCode: "sandbox.taxportal", schema: "taxportal.cash-receipts.sales.v1", params: RANGE } });
    await env.DB.prepare("UPDATE credentials SET certificate = ? WHERE id = ?").bind(face(new Date(Date.now() - 60_000).toISOString()), credentialId).run();
    const refused = await create();
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: "CREDENTIAL_EXPIRED", message: expect.stringContaining("유효기간") });
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM jobs WHERE workspace_id = ?").bind(ws.workspaceId).first()).toEqual({ n: 0 });
    await env.DB.prepare("UPDATE credentials SET certificate = ? WHERE id = ?").bind(face(new Date(Date.now() + 86_400_000).toISOString()), credentialId).run();
    expect((await create()).status).toBe(201);
  });
});
