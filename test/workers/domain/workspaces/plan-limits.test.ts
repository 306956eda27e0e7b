import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createJob } from "../../../../worker/domain/jobs/create";
import { ApiError } from "../../../../worker/platform/errors/api-error";
import { PLAN_LIMITS } from "../../../../worker/domain/workspaces/plans";
import { addCredential, callJson, createWorkspace, TX_JOB, withCapturedQueue } from "../../../support/workers/helpers";
import { committedRecords, harness, jobRow, RANGE } from "../../../support/workers/pipeline-harness";

const FREE_STEPS = PLAN_LIMITS.FREE.monthlyTaskSteps!;

/** Scraping steps already collected this month by an earlier job of the workspace, as a month of use leaves them. */
async function stepsAlreadyUsed(workspaceId: string, steps: number) {
  const jobId = crypto.randomUUID();
  const now = Date.now();
  await env.DB.prepare(
    `INSERT INTO jobs (id, workspace_id, billing_workspace_id, provider_code, schema, params, status, created_at, updated_at, deadline_at, finished_at, total_task_count, completed_task_count)
     VALUES (?1, ?2, ?2, 'sandbox.bank', 'bank.accounts.cb.v1', '{}', 'SUCCEEDED', ?3, ?3, ?3, ?3, ?4, ?4)`,
  ).bind(jobId, workspaceId, now, steps).run();
  await env.DB.prepare(
    `INSERT INTO task_units (job_id, unit_index, status, record_count, attempts, updated_at)
     WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < ?2) SELECT ?1, i, 'DONE', 0, 1, ?3 FROM n`,
  ).bind(jobId, steps, now).run();
}

const onPlan = (workspaceId: string, plan: "FREE" | "PRO") => env.DB.prepare("UPDATE workspaces SET plan = ? WHERE id = ?").bind(plan, workspaceId).run();

describe("the plan's monthly scraping-step cap", () => {
  it("ends a job that reaches it mid-run WORKSPACE_QUOTA_EXCEEDED, keeping the units collected so far", async () => {
    const ws = await createWorkspace();
    await addCredential(ws.workspaceId);
    await stepsAlreadyUsed(ws.workspaceId, FREE_STEPS - 3);
    const queue = withCapturedQueue();
    const job = await createJob(queue.env, ws.workspaceId, { providerCode: "sandbox.bank", schema: "bank.transactions.cb.v1", params: RANGE });
    const h = harness();
    h.queued.push(...queue.sent);
    await h.drain();
    const row = (await jobRow(job.id))!;
    expect(row).toMatchObject({ status: "FAILED", total_task_count: 6, completed_task_count: 3 });
    expect(JSON.parse(row.error)).toMatchObject({ code: "WORKSPACE_QUOTA_EXCEEDED", category: "OTHER", retryable: false });
    const kept = (await committedRecords(job.id)).length;
    expect(kept).toBe(row.record_count);
    expect(kept).toBeGreaterThan(0);
    const results = await callJson<Record<string, any>>(`/api/v1/data-jobs/${job.id}/results`, { key: ws.apiKey });
    expect(results.status).toBe(200);
  });

  it("refuses new jobs with 429 FREE_PLAN_TASK_CAP_REACHED and Retry-After once it is used up", async () => {
    const ws = await createWorkspace();
    await addCredential(ws.workspaceId);
    await stepsAlreadyUsed(ws.workspaceId, FREE_STEPS);
    const res = await callJson<Record<string, any>>("/api/v1/data-jobs", { method: "POST", key: ws.apiKey, json: TX_JOB });
    expect(res.status).toBe(429);
    expect(res.body).toMatchObject({ code: "FREE_PLAN_TASK_CAP_REACHED", requestId: expect.any(String) });
    expect(Number(res.headers.get("Retry-After"))).toBeGreaterThan(0);
  });

  it("does not cap a paid plan", async () => {
    const ws = await createWorkspace();
    await onPlan(ws.workspaceId, "PRO");
    await addCredential(ws.workspaceId);
    await stepsAlreadyUsed(ws.workspaceId, FREE_STEPS);
    const res = await callJson<Record<string, any>>("/api/v1/data-jobs", { method: "POST", key: ws.apiKey, json: TX_JOB });
    expect(res.status).toBeLessThan(300);
  });
});

describe("the plan's concurrent-job limit", () => {
  const FREE_CONCURRENT = PLAN_LIMITS.FREE.concurrentJobs!;

  it("answers 429 TOO_MANY_CONCURRENT_WORKERS while the free plan's unfinished jobs fill it, and frees a slot when one ends", async () => {
    const ws = await createWorkspace();
    await addCredential(ws.workspaceId);
    const queue = withCapturedQueue();
    const unfinished = await Promise.all(Array.from({ length: FREE_CONCURRENT + 3 }, () => createJob(queue.env, ws.workspaceId, TX_JOB).catch((err: unknown) => err)));
    expect(unfinished.filter((r) => !(r instanceof ApiError))).toHaveLength(FREE_CONCURRENT);
    expect(unfinished.filter((r) => r instanceof ApiError).map((e) => (e as ApiError).code)).toEqual(["TOO_MANY_CONCURRENT_WORKERS", "TOO_MANY_CONCURRENT_WORKERS", "TOO_MANY_CONCURRENT_WORKERS"]);
    const refused = await callJson<Record<string, any>>("/api/v1/data-jobs", { method: "POST", key: ws.apiKey, json: TX_JOB });
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: "TOO_MANY_CONCURRENT_WORKERS", requestId: expect.any(String) });
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);

    const first = unfinished.find((r) => !(r instanceof ApiError)) as { id: string };
    await env.DB.prepare("UPDATE jobs SET status = 'SUCCEEDED' WHERE id = ?").bind(first.id).run();
    await expect(createJob(queue.env, ws.workspaceId, TX_JOB)).resolves.toMatchObject({ status: "PENDING" });
  });

  it("does not limit a paid plan", async () => {
    const ws = await createWorkspace();
    await onPlan(ws.workspaceId, "PRO");
    await addCredential(ws.workspaceId);
    const queue = withCapturedQueue();
    const created = await Promise.all(Array.from({ length: FREE_CONCURRENT + 2 }, () => createJob(queue.env, ws.workspaceId, TX_JOB)));
    expect(created.every((row) => row.status === "PENDING")).toBe(true);
  });
});

describe("the plan's monthly job cap", () => {
  const FREE_JOBS = PLAN_LIMITS.FREE.monthlyJobs!;

  /** Jobs the workspace already created this month. */
  async function jobsAlreadyCreated(workspaceId: string, count: number) {
    const now = Date.now();
    await env.DB.prepare(
      `INSERT INTO jobs (id, workspace_id, billing_workspace_id, provider_code, schema, params, status, created_at, updated_at, deadline_at, finished_at)
       WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < ?2)
       SELECT ?1 || '-' || i, ?1, ?1, 'sandbox.bank', 'bank.accounts.cb.v1', '{}', 'SUCCEEDED', ?3, ?3, ?3, ?3 FROM n`,
    ).bind(workspaceId, count, now).run();
  }

  it("answers 429 FREE_PLAN_JOB_CAP_REACHED on the free plan once its monthly jobs are used", async () => {
    const ws = await createWorkspace();
    await addCredential(ws.workspaceId);
    await jobsAlreadyCreated(ws.workspaceId, FREE_JOBS - 1);
    expect((await callJson("/api/v1/data-jobs", { method: "POST", key: ws.apiKey, json: { providerCode: "sandbox.bank", schema: "bank.accounts.cb.v1" } })).status).toBeLessThan(300);
    const refused = await callJson<Record<string, any>>("/api/v1/data-jobs", { method: "POST", key: ws.apiKey, json: TX_JOB });
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe("FREE_PLAN_JOB_CAP_REACHED");
  });

  it("does not cap a paid plan's jobs", async () => {
    const ws = await createWorkspace();
    await onPlan(ws.workspaceId, "PRO");
    await addCredential(ws.workspaceId);
    await jobsAlreadyCreated(ws.workspaceId, FREE_JOBS);
    expect((await callJson("/api/v1/data-jobs", { method: "POST", key: ws.apiKey, json: TX_JOB })).status).toBeLessThan(300);
  });
});
