import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { createJob } from "../../../../worker/domain/jobs/create";
import { planMessage } from "../../../../worker/domain/jobs/messages";
import type { JobRow } from "../../../../worker/domain/jobs/store";
import { withDetachedDeliveries } from "../../../../worker/domain/pipeline/detached-delivery";
import { addCredential, createWorkspace, TX_JOB, withCapturedQueue } from "../../../support/workers/helpers";

const status = async (id: string) => (await env.DB.prepare("SELECT status FROM jobs WHERE id = ?").bind(id).first<{ status: string }>())!.status;
const localTasks = () => withDetachedDeliveries({ ...(env as Env), CONCURRENT_DELIVERIES: "1" }).TASKS;

async function pendingJob(): Promise<JobRow> {
  const ws = await createWorkspace();
  await addCredential(ws.workspaceId);
  // The plan message is captured here, so only the send under test runs the job.
  return createJob(withCapturedQueue().env, ws.workspaceId, TX_JOB);
}

describe("concurrent deliveries (local development, CONCURRENT_DELIVERIES)", () => {
  it("runs every sent message in an object of its own, so the sender never waits for a job and jobs run side by side", async () => {
    const jobs = [await pendingJob(), await pendingJob(), await pendingJob()];
    const started = Date.now();
    await Promise.all(jobs.map((job) => localTasks().send(planMessage(job))));
    const sentMs = Date.now() - started;
    // A login alone takes longer than three sends: no job has finished yet.
    expect(await Promise.all(jobs.map((job) => status(job.id)))).not.toContain("SUCCEEDED");
    await vi.waitUntil(async () => (await Promise.all(jobs.map((job) => status(job.id)))).every((s) => s === "SUCCEEDED"), { timeout: 180_000, interval: 200 });
    expect(sentMs).toBeLessThan((Date.now() - started) / 3);
  });

  it("keeps a delayed message stored until its delay has passed, then runs it", async () => {
    const job = await pendingJob();
    const sent = Date.now();
    await localTasks().send(planMessage(job), { delaySeconds: 2 });
    await new Promise((r) => setTimeout(r, 1500));
    expect(await status(job.id)).toBe("PENDING");
    await vi.waitUntil(async () => (await status(job.id)) !== "PENDING", { timeout: 60_000, interval: 100 });
    expect(Date.now() - sent).toBeGreaterThanOrEqual(2000);
    await vi.waitUntil(async () => (await status(job.id)) === "SUCCEEDED", { timeout: 180_000, interval: 200 });
  });
});
