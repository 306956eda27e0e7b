import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { addCredential, callJson, createWorkspace, TX_JOB } from "../../../support/workers/helpers";

type Json = Record<string, any>;

async function create(key: string, body: unknown, headers: Record<string, string> = {}) {
  return callJson<Json>("/api/v1/data-jobs", { method: "POST", key, json: body, headers });
}

describe("POST /data-jobs validation", () => {
  const cases: [string, unknown, number, string, string?][] = [
    ["unknown provider", { ...TX_JOB, providerCode: "nope.bank" }, 400, "INVALID_PROVIDER_CODE", "body.providerCode"],
    ["unknown schema", { ...TX_JOB, schema: "bank.nope.v1" }, 404, "SCHEMA_NOT_FOUND", "body.schema"],
    ["schema the provider lacks", { ...TX_JOB, schema: "card.cards.corp.v1" }, 400, "ACTION_NOT_SUPPORTED", "body.schema"],
    ["missing date", { ...TX_JOB, params: { dateRangeStart: "2026-01-01" } }, 400, "MISSING_REQUIRED_PARAM", "body.params.dateRangeEnd"],
    ["bad date format", { ...TX_JOB, params: { dateRangeStart: "2026/01/01", dateRangeEnd: "2026-01-31" } }, 400, "INVALID_PARAM_FORMAT", "body.params.dateRangeStart"],
    ["impossible date", { ...TX_JOB, params: { dateRangeStart: "2026-02-30", dateRangeEnd: "2026-03-31" } }, 400, "INVALID_PARAM_FORMAT", "body.params.dateRangeStart"],
    ["start after end", { ...TX_JOB, params: { dateRangeStart: "2026-02-01", dateRangeEnd: "2026-01-01" } }, 400, "DATE_RANGE_INVALID", "body.params.dateRangeEnd"],
    ["range over the maximum", { ...TX_JOB, params: { dateRangeStart: "2024-01-01", dateRangeEnd: "2025-12-31" } }, 400, "DATE_RANGE_EXCEEDED", "body.params"],
    ["unknown param", { ...TX_JOB, params: { ...TX_JOB.params, color: "red" } }, 400, "INVALID_DATA_JOB_PARAMS", "body.params"],
    ["params on the account list", { providerCode: "sandbox.bank", schema: "bank.accounts.cb.v1", params: { dateRangeStart: "2026-01-01" } }, 400, "INVALID_DATA_JOB_PARAMS", "body.params"],
    ["accountNumber not an array", { ...TX_JOB, params: { ...TX_JOB.params, accountNumber: "110-1" } }, 400, "INVALID_PARAM_FORMAT", "body.params.accountNumber"],
    ["params not an object", { ...TX_JOB, params: [1, 2] }, 400, "INVALID_PARAM_FORMAT", "body.params"],
    ["empty providerCode", { ...TX_JOB, providerCode: "" }, 400, "INVALID_PARAM_FORMAT", "body.providerCode"],
    ["schema not a string", { ...TX_JOB, schema: 5 }, 400, "INVALID_PARAM_FORMAT", "body.schema"],
  ];
  it.each(cases)("%s", async (_name, body, status, code, field) => {
    const ws = await createWorkspace();
    const res = await create(ws.apiKey, body);
    expect(res.status).toBe(status);
    expect(res.body.code).toBe(code);
    expect(res.body.message).toMatch(/[가-힣]/);
    if (field) expect(res.body.fieldErrors?.[0]?.field).toBe(field);
  });

  it("accepts exactly the maximum range", async () => {
    const ws = await createWorkspace();
    const res = await create(ws.apiKey, { ...TX_JOB, params: { dateRangeStart: "2025-01-01", dateRangeEnd: "2026-01-01" } });
    expect(res.status).toBe(201);
  });
});

describe("POST /data-jobs outcomes", () => {
  it("fails a job at once with CREDENTIAL_NOT_FOUND when the workspace has no credential", async () => {
    const ws = await createWorkspace();
    const res = await create(ws.apiKey, TX_JOB);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      kind: "Failed",
      providerCode: "sandbox.bank",
      schema: "bank.transactions.cb.v1",
      // The interval this deployment names (the tests' configuration shortens the spec's 5 s).
      suggestedPollIntervalMs: Number(env.SUGGESTED_POLL_INTERVAL_MS),
      error: { category: "CREDENTIAL_MISSING", code: "CREDENTIAL_NOT_FOUND", retryable: false },
    });
    expect(res.body.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.body.maxWaitSeconds).toBeGreaterThan(0);
    expect(res.body.error.message).toMatch(/[가-힣]/);
    const detail = await callJson<Json>(`/api/v1/data-jobs/${res.body.id}`, { key: ws.apiKey });
    expect(detail.body).toEqual(res.body);
  });

  it("suggests the spec's 5 s polling interval where the deployment names none", async () => {
    const ws = await createWorkspace();
    await addCredential(ws.workspaceId);
    const unconfigured = { ...env, SUGGESTED_POLL_INTERVAL_MS: undefined };
    const created = await callJson<Json>("/api/v1/data-jobs", { method: "POST", key: ws.apiKey, json: TX_JOB, env: unconfigured });
    expect(created.body).toMatchObject({ kind: "InProgress", suggestedPollIntervalMs: 5000 });
    const read = await callJson<Json>(`/api/v1/data-jobs/${created.body.id}`, { key: ws.apiKey, env: unconfigured });
    expect(read.body.suggestedPollIntervalMs).toBe(5000);
  });

  it("records an InProgress PENDING job when a credential exists", async () => {
    const ws = await createWorkspace();
    await addCredential(ws.workspaceId);
    const res = await create(ws.apiKey, TX_JOB);
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(
      ["completedTaskCount", "credentialId", "id", "kind", "maxWaitSeconds", "phase", "providerCode", "schema", "suggestedPollIntervalMs", "totalTaskCount"].sort(),
    );
    expect(res.body).toMatchObject({ kind: "InProgress", phase: "PENDING", completedTaskCount: 0, totalTaskCount: 0 });
  });

  it("gives a longer wait budget to a longer range", async () => {
    const ws = await createWorkspace();
    const short = await create(ws.apiKey, TX_JOB);
    const long = await create(ws.apiKey, { ...TX_JOB, params: { dateRangeStart: "2025-01-01", dateRangeEnd: "2025-12-31" } });
    expect(long.body.maxWaitSeconds).toBeGreaterThan(short.body.maxWaitSeconds);
  });
});

describe("GET /data-jobs/{id}", () => {
  it("hides jobs of other workspaces and unknown or malformed ids behind DATA_JOB_NOT_FOUND", async () => {
    const owner = await createWorkspace();
    const other = await createWorkspace();
    const job = await create(owner.apiKey, TX_JOB);
    for (const id of [job.body.id, crypto.randomUUID(), "not-a-uuid", "%27%20OR%201%3D1"]) {
      for (const suffix of ["", "/results", "/results.csv"]) {
        const res = await callJson<Json>(`/api/v1/data-jobs/${id}${suffix}`, { key: other.apiKey });
        expect(res.status).toBe(404);
        expect(res.body.code).toBe("DATA_JOB_NOT_FOUND");
      }
    }
  });

  it("answers results of a job with no finished units as empty", async () => {
    const ws = await createWorkspace();
    const job = await create(ws.apiKey, TX_JOB);
    const res = await callJson<Json>(`/api/v1/data-jobs/${job.body.id}/results`, { key: ws.apiKey });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ jobId: job.body.id, schema: "bank.transactions.cb.v1", totalCount: 0, data: [] });
  });
});

describe("free plan job cap", () => {
  it("answers 429 FREE_PLAN_JOB_CAP_REACHED with Retry-After once the monthly cap is used, exactly under concurrency", async () => {
    const ws = await createWorkspace({ monthlyJobCap: 5 });
    const results = await Promise.all(Array.from({ length: 12 }, () => create(ws.apiKey, TX_JOB)));
    const created = results.filter((r) => r.status === 201);
    const capped = results.filter((r) => r.status === 429);
    expect(created).toHaveLength(5);
    expect(capped).toHaveLength(7);
    for (const r of capped) {
      expect(r.body.code).toBe("FREE_PLAN_JOB_CAP_REACHED");
      const retryAfter = Number(r.headers.get("Retry-After"));
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(31 * 86400);
    }
  });
});
