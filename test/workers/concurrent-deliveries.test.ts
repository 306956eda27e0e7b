import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { createJob } from "../../worker/jobs/create";
import { planMessage, type PipelineMessage } from "../../worker/jobs/messages";
import type { JobRow } from "../../worker/jobs/store";
import { consumeBatch } from "../../worker/pipeline/consumer";
import { addCredential, createWorkspace, TX_JOB, withCapturedQueue } from "./helpers";

const status = async (id: string) => (await env.DB.prepare("SELECT status FROM jobs WHERE id = ?").bind(id).first<{ status: string }>())!.status;

describe("concurrent deliveries (local development, CONCURRENT_DELIVERIES)", () => {
  it("hands every message of a batch on at once and runs them side by side, so the broker never waits for a job", async () => {
    const jobs: JobRow[] = [];
    for (let i = 0; i < 3; i++) {
      const ws = await createWorkspace();
      await addCredential(ws.workspaceId);
      jobs.push(await createJob(withCapturedQueue().env, ws.workspaceId, TX_JOB));
    }
    const batch = createMessageBatch<PipelineMessage>(
      "collect-tasks",
      jobs.map((job) => ({ id: crypto.randomUUID(), timestamp: new Date(), attempts: 1, body: planMessage(job) })),
    );
    const ctx = createExecutionContext();
    const started = Date.now();
    await consumeBatch(batch, { ...env, CONCURRENT_DELIVERIES: "1" });
    const handedOnMs = Date.now() - started;
    const result = await getQueueResult(batch, ctx);
    expect(result.explicitAcks).toHaveLength(3);
    // A login alone takes longer than handing three messages on: no job has finished yet.
    expect(await Promise.all(jobs.map((job) => status(job.id)))).not.toContain("SUCCEEDED");
    await vi.waitUntil(async () => (await Promise.all(jobs.map((job) => status(job.id)))).every((s) => s === "SUCCEEDED"), { timeout: 45_000, interval: 200 });
    const allDoneMs = Date.now() - started;
    expect(handedOnMs).toBeLessThan(allDoneMs / 3);
  });
});
