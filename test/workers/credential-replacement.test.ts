import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createJob } from "../../worker/domain/jobs/create";
import { executeMessage } from "../../worker/domain/pipeline/executor";
import { addCredential, callJson, createWorkspace, withCapturedQueue } from "./helpers";
import { harness, jobRow, RANGE } from "./pipeline-harness";

type Json = Record<string, any>;
const GOOD = { providerCode: "sandbox.bank", authMethod: "PROVIDER_LOGIN", fields: { loginId: "user_good", password: "pass_good" } };

const register = (key: string) => callJson<Json>("/api/v1/credentials", { method: "POST", key, json: GOOD });
const sealedOf = async (id: string) => (await env.DB.prepare("SELECT sealed FROM credentials WHERE id = ?").bind(id).first<{ sealed: string | null }>())!.sealed;

describe("registering a credential again", () => {
  it("supersedes the old one: its secret is erased and its operations answer 409 CREDENTIAL_SUPERSEDED", async () => {
    const ws = await createWorkspace();
    const old = await register(ws.apiKey);
    const fresh = await register(ws.apiKey);
    expect(fresh.status).toBe(201);
    expect(await sealedOf(old.body.id)).toBeNull();
    for (const method of ["GET", "DELETE"]) {
      const res = await callJson<Json>(`/api/v1/credentials/${old.body.id}`, { method, key: ws.apiKey });
      expect(res.status).toBe(409);
      expect(res.body).toMatchObject({ code: "CREDENTIAL_SUPERSEDED", requestId: expect.any(String) });
      expect(res.body.message).toMatch(/새 자격 증명/);
    }
    expect((await callJson<Json>(`/api/v1/credentials/${fresh.body.id}`, { key: ws.apiKey })).body.status).toBe("ACTIVE");
  });

  it("lets a running job finish on the credential it started with, and erases that secret when it ends", async () => {
    const ws = await createWorkspace();
    const old = await addCredential(ws.workspaceId);
    const queue = withCapturedQueue();
    const job = await createJob(queue.env, ws.workspaceId, { providerCode: "sandbox.bank", schema: "bank.transactions.cb.v1", params: RANGE });
    const h = harness();
    await executeMessage(h.deps, queue.sent[0]!);
    expect((await jobRow(job.id))!.status).toBe("RUNNING");

    const fresh = await register(ws.apiKey);
    expect(fresh.status).toBe(201);
    expect(await sealedOf(old)).not.toBeNull();
    await h.drain();
    expect((await jobRow(job.id))!.status).toBe("SUCCEEDED");
    expect(await sealedOf(old)).toBeNull();
  });

  it("brings back a credential the institution refused: jobs log in again on the new one", async () => {
    const ws = await createWorkspace();
    await addCredential(ws.workspaceId, "sandbox.bank", { authMethod: "PROVIDER_LOGIN", loginId: "user_good", password: "wrong_password" });
    const run = async () => {
      const queue = withCapturedQueue();
      const job = await createJob(queue.env, ws.workspaceId, { providerCode: "sandbox.bank", schema: "bank.accounts.cb.v1", params: {} });
      const h = harness();
      h.queued.push(...queue.sent);
      await h.drain();
      return jobRow(job.id);
    };
    expect(JSON.parse((await run())!.error).code).toBe("LOGIN_FAILED");
    expect(JSON.parse((await run())!.error).code).toBe("NO_VALID_CREDENTIAL");
    expect((await register(ws.apiKey)).status).toBe(201);
    expect((await run())!.status).toBe("SUCCEEDED");
  });
});
