// start-order: 16 (why: vitest.e2e.config.ts)
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Webhook, WebhookVerificationError } from "standardwebhooks";
import { verifyWebhook, type WebhookEvent } from "../../client/src/webhooks";
import { type ReceivedWebhook, startWebhookReceiver } from "../support/webhook-receiver";
import { client, type Stack, startStack } from "../support/e2e/stack";

type Json = Record<string, any>;

let stack: Stack;
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;

beforeAll(async () => {
  stack = await startStack();
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  await receiver?.close();
});

async function receivedAtLeast(name: string, count: number, timeoutMs = 240_000): Promise<ReceivedWebhook[]> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const got = receiver.received(name);
    if (got.length >= count) return got;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`receiver got ${receiver.received(name).length} requests for ${name}, expected ${count}`);
}

describe("webhooks on the local stack", () => {
  it("delivers data_job.succeeded for a real sandbox job with valid signatures, ours and Standard Webhooks', retrying a receiver that answers 500", async () => {
    const api = client(stack);
    const register = async (path: string) => {
      const created = await api.json("POST", "/api/v1/webhook-endpoints", { url: `${receiver.url}${path}`, events: ["data_job.succeeded"], description: "e2e" });
      expect(created.status).toBe(201);
      return created.body;
    };
    const steady = await register("/hooks/steady");
    const flaky = await register("/hooks/flaky?fail=2");

    const job = await api.createJob({ providerCode: "sandbox.bank", schema: "bank.accounts.cb.v1" });
    const done = await api.waitForJob(job.id);
    expect(done.kind).toBe("Succeeded");

    const [delivered] = await receivedAtLeast("steady", 1);
    const event = await verifyWebhook<WebhookEvent>(delivered!.body, delivered!.headers["x-svc-signature"], steady.secret);
    expect(event).toMatchObject({ type: "data_job.succeeded", data: { object: done } });
    expect(delivered!.headers["x-svc-event-type"]).toBe("data_job.succeeded");
    await expect(verifyWebhook(delivered!.body, delivered!.headers["x-svc-signature"], flaky.secret)).rejects.toMatchObject({ code: "WEBHOOK_SIGNATURE_INVALID" });

    // The Standard Webhooks library verifies the same delivery from its own headers, and refuses another endpoint's secret.
    expect(new Webhook(steady.secret).verify(delivered!.body, delivered!.headers)).toEqual(event);
    expect(() => new Webhook(flaky.secret).verify(delivered!.body, delivered!.headers)).toThrow(WebhookVerificationError);

    const attempts = await receivedAtLeast("flaky", 3);
    expect(attempts.map((a) => a.answered)).toEqual([500, 500, 200]);
    for (const attempt of attempts) {
      const retried = await verifyWebhook<WebhookEvent>(attempt.body, attempt.headers["x-svc-signature"], flaky.secret);
      expect(retried).toMatchObject({ type: "data_job.succeeded", data: { object: { id: job.id, kind: "Succeeded" } } });
      expect(new Webhook(flaky.secret).verify(attempt.body, attempt.headers)).toEqual(retried);
    }
    expect(new Set(attempts.map((a) => a.headers["x-svc-event-id"])).size).toBe(1);
    expect(new Set(attempts.map((a) => a.headers["webhook-id"]))).toEqual(new Set([attempts[0]!.headers["x-svc-event-id"]]));

    const deadline = Date.now() + 40_000;
    let log: Json[] = [];
    while (Date.now() < deadline) {
      log = (await api.json("GET", `/api/v1/webhook-endpoints/${flaky.id}/deliveries`)).body.items;
      if (log[0]?.status === "SUCCEEDED") break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({ status: "SUCCEEDED", attemptCount: 3, eventType: "data_job.succeeded" });
    expect(log[0]!.attempts.map((a: Json) => a.responseStatus)).toEqual([500, 500, 200]);
  });
});
