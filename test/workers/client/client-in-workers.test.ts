// start-order: 2 (why: vitest.config.ts)
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { CollectApiError, CollectClient, JobWaitTimeoutError } from "../../../client/src/index";
import { addCredential, call, createWorkspace, fileAddress, onClock } from "../../support/workers/helpers";

function fromFileAddress(request: Request): Request {
  const headers = new Headers(request.headers);
  headers.set("CF-Connecting-IP", fileAddress());
  return new Request(request, { headers });
}

/** The typed client running inside workerd, calling the worker through its fetch handler (as a service binding would). */
function clientFor(apiKey: string, retry?: { maxRetries?: number; baseDelayMs?: number }): CollectClient {
  return new CollectClient({ baseUrl: "https://api.test", apiKey, retry, fetch: (input, init) => exports.default.fetch(fromFileAddress(new Request(input, init))) });
}

/**
 * A client whose network fails as production networks do: each scripted step answers 503 with Retry-After
 * before the worker sees the call (wrangler dev's proxy did), or drops the answer after the worker made it.
 */
function flakyClientFor(apiKey: string, steps: ("503" | "drop")[] = []) {
  const sent: Request[] = [];
  const statuses: number[] = [];
  const client = new CollectClient({
    baseUrl: "https://api.test",
    apiKey,
    retry: { baseDelayMs: 1 },
    fetch: async (input, init) => {
      const request = new Request(input, init);
      sent.push(request.clone());
      const step = steps.shift();
      if (step === "503") return new Response("Your worker restarted mid-request.", { status: 503, headers: { "Retry-After": "1" } });
      const response = await exports.default.fetch(fromFileAddress(request));
      if (step === "drop") throw new TypeError("Network connection lost.");
      statuses.push(response.status);
      return response;
    },
  });
  return { client, sent, statuses };
}

describe("the typed client in the Workers runtime", () => {
  it("creates a job, follows its progress to Succeeded, and reads its records typed by schema and its CSV", async () => {
    const ws = await createWorkspace();
    await addCredential(ws.workspaceId);
    const client = clientFor(ws.apiKey);
    const key = crypto.randomUUID();
    const job = await client.createJob({ providerCode: "sandbox.bank", schema: "bank.accounts.cb.v1" }, { idempotencyKey: key });
    // The same key and body name the same job.
    expect((await client.createJob({ providerCode: "sandbox.bank", schema: "bank.accounts.cb.v1" }, { idempotencyKey: key })).id).toBe(job.id);

    const seen: string[] = [];
    const done = await client.waitForJob(job.id, { onProgress: (j) => void seen.push(j.phase) });
    expect(done).toMatchObject({ id: job.id, kind: "Succeeded", recordCount: 3 });
    expect(seen.length).toBeGreaterThan(0);

    const records = await client.records(job.id, "bank.accounts.cb.v1");
    expect(records.data).toHaveLength(3);
    for (const account of records.data) expect(account.accountNumber).toMatch(/\d/);
    await expect(client.records(job.id, "bank.transactions.cb.v1")).rejects.toThrow(TypeError);

    const csv = await new Response(await client.resultsCsv(job.id)).text();
    expect(csv.trim().split("\n")).toHaveLength(4);
  });

  it("stops waiting when the wait budget runs out, with the last snapshot", async () => {
    const ws = await createWorkspace();
    await addCredential(ws.workspaceId);
    const client = clientFor(ws.apiKey);
    const job = await client.createJob({ providerCode: "sandbox.bank", schema: "bank.accounts.cb.v1" });
    expect(job.maxWaitSeconds).toBeGreaterThan(1);
    // A budget far below the job's own maxWaitSeconds: a browser login alone takes longer.
    const timedOut = await client.waitForJob(job, { maxWaitSeconds: 0.05 }).catch((e: unknown) => e);
    expect(timedOut).toBeInstanceOf(JobWaitTimeoutError);
    expect((timedOut as JobWaitTimeoutError).job).toMatchObject({ id: job.id, kind: "InProgress" });
    // The job itself carries on and the default budget (its maxWaitSeconds) sees it through.
    expect((await client.waitForJob(job.id)).kind).toBe("Succeeded");
  });

  it("returns a non-retryable failure at once, with its category, without making another job", async () => {
    const ws = await createWorkspace();
    await addCredential(ws.workspaceId, "sandbox.bank", { authMethod: "PROVIDER_LOGIN", loginId: "user_good", password: "error_LOGIN_FAILED" });
    const client = clientFor(ws.apiKey);
    const failed = await client.runJob({ providerCode: "sandbox.bank", schema: "bank.accounts.cb.v1" }, { jobRetries: 2 });
    expect(failed).toMatchObject({ kind: "Failed", error: { category: "CREDENTIAL", code: "LOGIN_FAILED", retryable: false } });
    const jobs = [];
    for await (const item of client.listJobs()) jobs.push(item.id);
    expect(jobs).toEqual([failed.id]);

    await expect(client.runJob({ providerCode: "sandbox.bank", schema: "bank.accounts.cb.v1" }, { throwOnFailure: true })).rejects.toMatchObject({
      name: "JobFailedError",
      category: "CREDENTIAL",
      retryable: false,
    });
  });

  it("sends a create again after a 503 with Retry-After and after a dropped answer, with one Idempotency-Key, and one job is made", async () => {
    const ws = await createWorkspace();
    await addCredential(ws.workspaceId);
    const { client, sent } = flakyClientFor(ws.apiKey, ["503", "drop"]);
    const job = await client.createJob({ providerCode: "sandbox.bank", schema: "bank.accounts.cb.v1" });
    expect(sent).toHaveLength(3);
    expect(new Set(sent.map((r) => r.headers.get("Idempotency-Key"))).size).toBe(1);
    const jobs = [];
    for await (const listed of clientFor(ws.apiKey).listJobs()) jobs.push(listed.id);
    expect(jobs).toEqual([job.id]);
  });

  it("does not send a keyless POST again after a dropped answer or a 5xx: it throws, and one endpoint exists", async () => {
    const ws = await createWorkspace();
    const endpoint = { url: "https://hooks.example.com/collect", events: ["data_job.succeeded" as const] };
    const dropped = flakyClientFor(ws.apiKey, ["drop"]);
    await expect(dropped.client.createWebhookEndpoint(endpoint)).rejects.toMatchObject({ code: "NETWORK_ERROR", status: 0 });
    const unavailable = flakyClientFor(ws.apiKey, ["503"]);
    await expect(unavailable.client.createWebhookEndpoint(endpoint)).rejects.toMatchObject({ status: 503, retryAfterSeconds: 1 });
    expect([dropped.sent.length, unavailable.sent.length]).toEqual([1, 1]);
    const listed = await call("/api/v1/webhook-endpoints", { key: ws.apiKey });
    expect((await listed.json<{ items: unknown[] }>()).items).toHaveLength(1);
  });

  it("throws CollectApiError with the envelope's code, status, requestId and fieldErrors", async () => {
    const ws = await createWorkspace();
    const client = clientFor(ws.apiKey);
    const error = await client.createJob({ providerCode: "sandbox.bank", schema: "bank.transactions.cb.v1", params: { dateRangeStart: "2026-13-01" } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CollectApiError);
    expect(error).toMatchObject({ status: 400, requestId: expect.any(String), fieldErrors: expect.arrayContaining([expect.objectContaining({ field: expect.stringContaining("dateRange") })]) });
    expect((error as CollectApiError).code).toBe((error as CollectApiError).fieldErrors![0]!.code);
    await expect(client.getJob(crypto.randomUUID())).rejects.toMatchObject({ code: "DATA_JOB_NOT_FOUND", status: 404 });
  });

  it("throws at once, with Retry-After, a 429 that lasts longer than it waits out (the free plan's monthly cap)", async () => {
    const ws = await createWorkspace({ monthlyJobCap: 0 });
    const { client, sent } = flakyClientFor(ws.apiKey);
    const capped = await client.createJob({ providerCode: "sandbox.bank", schema: "bank.accounts.cb.v1" }).catch((e: unknown) => e);
    expect(capped).toMatchObject({ code: "FREE_PLAN_JOB_CAP_REACHED", status: 429 });
    expect((capped as CollectApiError).retryAfterSeconds).toBeGreaterThan(300);
    expect(sent).toHaveLength(1);
  });

  it("waits what Retry-After says when rate limited, then carries on", async () => {
    const ws = await createWorkspace();
    await addCredential(ws.workspaceId);
    const job = await clientFor(ws.apiKey).createJob({ providerCode: "sandbox.bank", schema: "bank.accounts.cb.v1" });
    // Spend the key's allowance two seconds before a minute's end, on a stopped clock.
    await onClock(58_000, async (setClock) => {
      const burst = await Promise.all(Array.from({ length: 100 }, () => call("/api/v1/schemas", { key: ws.apiKey })));
      await Promise.all(burst.map((r) => r.arrayBuffer()));
      const limited = await clientFor(ws.apiKey, { maxRetries: 0 }).getJob(job.id).catch((e: unknown) => e as CollectApiError);
      expect(limited).toMatchObject({ code: "API_RATE_LIMITED", status: 429, retryAfterSeconds: 2 });

      // The minute ends one real second into the client's wait of two.
      setTimeout(() => setClock(60_100), 1000);
      const waiting = flakyClientFor(ws.apiKey);
      const done = await waiting.client.waitForJob(job.id);
      expect(done.kind).toBe("Succeeded");
      // The client waited Retry-After out once rather than hammering the limit.
      expect(waiting.statuses.filter((status) => status === 429)).toHaveLength(1);
      expect(waiting.statuses.at(-1)).toBe(200);
    });
  });
});
