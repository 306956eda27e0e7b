import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createJob } from "../../../../worker/domain/jobs/create";
import { consumeBatch } from "../../../../worker/domain/pipeline/consumer";
import { type PipelineMessage, planMessage as planOf } from "../../../../worker/domain/jobs/messages";
import { TX_JOB, addCredential, createWorkspace, dispatchToQueue, queueDeliveries, withCapturedQueue } from "../../../support/workers/helpers";

/** A job as POST /data-jobs records it, its plan message captured, so only this test's batch runs it. */
async function newJob(login?: { loginId: string; password: string }) {
  const ws = await createWorkspace();
  if (login) await addCredential(ws.workspaceId, TX_JOB.providerCode, { authMethod: "PROVIDER_LOGIN", ...login });
  return createJob(withCapturedQueue().env, ws.workspaceId, TX_JOB);
}

/** Runs one batch through the queue handler, with the bindings given, and reads back what it acked and retried. */
async function consume(bodies: PipelineMessage[], bindings: Env = env) {
  const messages = queueDeliveries(bodies);
  const batch = createMessageBatch<PipelineMessage>("collect-tasks", messages);
  const ctx = createExecutionContext();
  await consumeBatch(batch, bindings);
  return { ids: messages.map((m) => m.id), result: await getQueueResult(batch, ctx) };
}

async function jobRow(id: string) {
  return env.DB.prepare("SELECT status, attempt, error FROM jobs WHERE id = ?").bind(id).first<{ status: string; attempt: number; error: string | null }>();
}

describe("queue consumer: executor outcome to ack or retry", () => {
  it("acks messages for an unknown job and for a job that has already finished", async () => {
    const finished = await newJob(); // no credential: born Failed
    expect(finished.status).toBe("FAILED");
    const { ids, result } = await consume([planOf({ id: crypto.randomUUID(), workspaceId: finished.workspaceId }), planOf(finished)]);
    expect(result.outcome).toBe("ok");
    expect(result.explicitAcks.sort()).toEqual([...ids].sort());
    expect(result.retryMessages).toEqual([]);
    expect(result.retryBatch.retry).toBe(false);
  });

  it("acks a message whose job fails for good at the provider, leaving the job Failed", async () => {
    const job = await newJob({ loginId: "user_good", password: "wrong_pass" });
    const { ids, result } = await consume([planOf(job)]);
    expect(result.explicitAcks).toEqual(ids);
    expect(result.retryMessages).toEqual([]);
    const row = await jobRow(job.id);
    expect(row!.status).toBe("FAILED");
    expect(JSON.parse(row!.error!)).toMatchObject({ code: "LOGIN_FAILED", retryable: false });
  });

  it("retries a message whose job hit a transient failure and keeps the job open", async () => {
    const job = await newJob({ loginId: "user_good", password: "pass_good" });
    // Nothing listens on port 1: the scraper is down, a crash the executor classifies as retryable (ENGINE_CRASHED).
    const scraperDown: Env = { ...env, SCRAPER_URL: "http://127.0.0.1:1" };
    const { ids, result } = await consume([planOf(job)], scraperDown);
    expect(result.explicitAcks).toEqual([]);
    expect(result.retryMessages.map((m) => m.msgId)).toEqual(ids);
    expect(await jobRow(job.id)).toEqual({ status: "PENDING", attempt: 1, error: null });
  });

  // createMessageBatch() drops retry()'s options, so the delay is read from the runtime's own dispatch into the worker.
  it("hands the runtime a backoff delay with the retry", async () => {
    const job = await newJob({ loginId: "user_good", password: "error_LOGIN_TRANSIENT" });
    const [message] = queueDeliveries([planOf(job)]);
    const result = await dispatchToQueue("collect-tasks", [message!]);
    expect(result.explicitAcks).toEqual([]);
    expect(result.retryMessages).toEqual([{ msgId: message!.id, delaySeconds: expect.any(Number) }]);
    expect(result.retryMessages[0]!.delaySeconds).toBeGreaterThan(0);
    expect(await jobRow(job.id)).toEqual({ status: "PENDING", attempt: 1, error: null });
  });
});
