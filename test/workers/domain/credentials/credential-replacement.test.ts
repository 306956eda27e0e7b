import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createJob } from "../../../../worker/domain/jobs/create";
import { executeMessage } from "../../../../worker/domain/pipeline/executor";
import { addCredential, call, callJson, createWorkspace, type TestWorkspace, withCapturedQueue } from "../../../support/workers/helpers";
import { harness, jobRow, RANGE } from "../../../support/workers/pipeline-harness";
import { finishedJob, jobRowOf } from "../../../support/workers/results-retention-helpers";

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
    // Without logging in again: the refusal the credential was marked for.
    expect(JSON.parse((await run())!.error).code).toBe("LOGIN_FAILED");
    expect((await register(ws.apiKey)).status).toBe(201);
    expect((await run())!.status).toBe("SUCCEEDED");
  });
});

describe("deleting a re-registered login with deleteResults=true", () => {
  const remove = (ws: TestWorkspace, id: string, withResults = true) => callJson<Json>(`/api/v1/credentials/${id}${withResults ? "?deleteResults=true" : ""}`, { method: "DELETE", key: ws.apiKey });
  const resultsStatus = async (ws: TestWorkspace, jobId: string) => (await call(`/api/v1/data-jobs/${jobId}/results`, { key: ws.apiKey })).status;

  it("deletes the results of every row of the login it superseded, and nothing of another login", async () => {
    const ws = await createWorkspace();
    const first = (await register(ws.apiKey)).body.id as string;
    const before = await finishedJob(ws);
    await register(ws.apiKey);
    const third = (await register(ws.apiKey)).body.id as string;
    const after = await finishedJob(ws);
    expect([(await jobRowOf(before))!.credential_id, (await jobRowOf(after))!.credential_id]).toEqual([first, third]);
    const other = await callJson<Json>("/api/v1/credentials", { method: "POST", key: ws.apiKey, json: { ...GOOD, fields: { loginId: "user_other", password: "pass_good" } } });
    await callJson(`/api/v1/credentials/${other.body.id}`, { method: "PATCH", key: ws.apiKey, json: { isDefault: true } });
    const another = await finishedJob(ws);
    expect((await jobRowOf(another))!.credential_id).toBe(other.body.id);

    expect((await remove(ws, third)).status).toBe(204);
    expect([await resultsStatus(ws, before), await resultsStatus(ws, after), await resultsStatus(ws, another)]).toEqual([410, 410, 200]);
    expect((await jobRowOf(before))!.results_deleted_reason).toBe("CREDENTIAL_DELETED");
  });

  it("takes a superseded or an already deleted id: that row's results and those before it go, a live successor's stay", async () => {
    const ws = await createWorkspace();
    const first = (await register(ws.apiKey)).body.id as string;
    const before = await finishedJob(ws);
    const second = (await register(ws.apiKey)).body.id as string;
    const after = await finishedJob(ws);
    // The credential itself is still deleted through its new id only.
    expect((await remove(ws, first, false)).body.code).toBe("CREDENTIAL_SUPERSEDED");
    expect((await remove(ws, first)).status).toBe(204);
    expect([await resultsStatus(ws, before), await resultsStatus(ws, after)]).toEqual([410, 200]);
    expect((await callJson<Json>(`/api/v1/credentials/${second}`, { key: ws.apiKey })).body.status).toBe("ACTIVE");

    // Deleted without its results first: asking again with deleteResults deletes them; without it, as before, 404.
    expect((await remove(ws, second, false)).status).toBe(204);
    expect(await resultsStatus(ws, after)).toBe(200);
    expect((await remove(ws, second)).status).toBe(204);
    expect(await resultsStatus(ws, after)).toBe(410);
    expect((await remove(ws, second)).status).toBe(204);
    expect((await remove(ws, second, false)).body.code).toBe("CREDENTIAL_NOT_FOUND");
    const stranger = await createWorkspace();
    const refused = await remove(stranger, first);
    expect([refused.status, refused.body.code]).toEqual([404, "CREDENTIAL_NOT_FOUND"]);
  });

  it("is refused while a job still runs on a row the login superseded: what it collects would outlive the deletion", async () => {
    const ws = await createWorkspace();
    await register(ws.apiKey);
    const running = await createJob(withCapturedQueue().env, ws.workspaceId, { providerCode: "sandbox.bank", schema: "bank.accounts.cb.v1", params: {} });
    expect(running.status).toBe("PENDING");
    const second = (await register(ws.apiKey)).body.id as string;
    for (const withResults of [true, false]) {
      const refused = await remove(ws, second, withResults);
      expect([refused.status, refused.body.code]).toEqual([409, "CREDENTIAL_HAS_ACTIVE_CONNECTIONS"]);
    }
    expect((await callJson<Json>(`/api/v1/credentials/${second}`, { key: ws.apiKey })).body.status).toBe("ACTIVE");
  });
});
