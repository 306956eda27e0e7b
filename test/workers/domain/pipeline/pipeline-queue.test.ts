import { describe, expect, it, vi } from "vitest";
import { addCredential, callJson, createWorkspace } from "../../../support/workers/helpers";

type Json = Record<string, any>;

describe("queue consumer", () => {
  it("takes a job from POST to Succeeded through the real queue, and serves its results", async () => {
    const ws = await createWorkspace();
    await addCredential(ws.workspaceId);
    const created = await callJson<Json>("/api/v1/data-jobs", { method: "POST", key: ws.apiKey, json: { providerCode: "sandbox.bank", schema: "bank.accounts.cb.v1" } });
    expect(created.body).toMatchObject({ kind: "InProgress", phase: "PENDING" });
    const done = await vi.waitUntil(
      async () => {
        const job = await callJson<Json>(`/api/v1/data-jobs/${created.body.id}`, { key: ws.apiKey });
        return job.body.kind === "InProgress" ? null : job.body;
      },
      { timeout: 180_000, interval: 200 },
    );
    expect(done).toMatchObject({ kind: "Succeeded", recordCount: 3 });
    const results = await callJson<Json>(`/api/v1/data-jobs/${created.body.id}/results`, { key: ws.apiKey });
    expect(results.body.totalCount).toBe(3);
    expect(results.body.data.map((r: Json) => r.schema)).toEqual(Array(3).fill("bank.accounts.cb.v1"));
  });
});
