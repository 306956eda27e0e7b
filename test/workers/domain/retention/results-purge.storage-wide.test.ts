import { createScheduledController } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import worker from "../../../../worker/index";
import { purgeDueResults } from "../../../../worker/domain/retention/results";
import { callJson, createWorkspace, type TestWorkspace } from "../../../support/workers/helpers";
import { expireAt, finishedJob, jobRowOf, planRows, storedObjects, unitCommits } from "../../../support/workers/results-retention-helpers";

type Json = Record<string, any>;

const row = jobRowOf;

async function expectPurged(ws: TestWorkspace, jobId: string) {
  expect(await storedObjects(jobId), jobId).toBe(0);
  expect(await unitCommits(jobId), jobId).toBe(0);
  expect(await planRows(jobId), jobId).toBe(0);
  const stored = (await row(jobId))!;
  expect(stored).toMatchObject({ status: "SUCCEEDED", record_count: 3, completed_task_count: 2, total_task_count: 2 });
  expect(stored.results_purged_at).not.toBeNull();
  expect((await callJson<Json>(`/api/v1/data-jobs/${jobId}`, { key: ws.apiKey })).body).toMatchObject({ kind: "Succeeded", recordCount: 3 });
}

// Acts on every job whose results expired, whichever file made it: hence the storage-wide project (vitest.config.ts).
describe("the cron's purge of expired results", () => {
  it("removes expired results soonest first in bounded batches (objects, units' rows and plans), keeps each job's metadata, and leaves the rest", async () => {
    const ws = await createWorkspace();
    const expired = [await finishedJob(ws), await finishedJob(ws), await finishedJob(ws)];
    const kept = await finishedJob(ws);
    // Older than anything other files leave, so they come first in the purge's order.
    for (const [i, jobId] of expired.entries()) await expireAt(jobId, i + 1);

    expect(await purgeDueResults(env, 2, Date.now())).toBe(2);
    for (const jobId of expired.slice(0, 2)) await expectPurged(ws, jobId);
    expect(await storedObjects(expired[2]!)).toBeGreaterThan(0);
    expect(await unitCommits(expired[2]!)).toBe(2);
    expect(await planRows(expired[2]!)).toBe(1);

    await worker.scheduled(createScheduledController(), env);
    await expectPurged(ws, expired[2]!);
    expect(await storedObjects(kept)).toBeGreaterThan(0);
    expect(await unitCommits(kept)).toBe(2);
    expect((await row(kept))!.results_purged_at).toBeNull();
    expect((await callJson<Json>(`/api/v1/data-jobs/${expired[2]}/results`, { key: ws.apiKey })).status).toBe(410);
  });

  it("removes results deleted with their credential, which were only refused until then, and shows the jobs' new expiry", async () => {
    const ws = await createWorkspace();
    const jobId = await finishedJob(ws);
    const credentialId = (await row(jobId))!.credential_id as string;
    expect((await callJson<Json>(`/api/v1/credentials/${credentialId}?deleteResults=true`, { method: "DELETE", key: ws.apiKey })).status).toBe(204);
    expect(await storedObjects(jobId)).toBeGreaterThan(0);
    await worker.scheduled(createScheduledController(), env);
    await expectPurged(ws, jobId);
    const deletedAt = (await row(jobId))!.results_expire_at as number;
    expect((await callJson<Json>(`/api/v1/data-jobs/${jobId}`, { key: ws.apiKey })).body.resultsExpireAt).toBe(new Date(deletedAt).toISOString());
  });
});
