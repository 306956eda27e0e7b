import { env, exports } from "cloudflare:workers";
import { CollectClient } from "../../../../client/src/index";
import { describe, expect, it } from "vitest";
import { issueApiKey } from "../../../../worker/domain/api-keys/store";
import { consumeDeliveryBatch, type RouteDeliveryMessage } from "../../../../worker/domain/deliveries/consumer";
import { insertDelivery } from "../../../../worker/domain/deliveries/store";
import { resultUnits } from "../../../../worker/domain/jobs/results-rows";
import { purgeJobResults } from "../../../../worker/domain/jobs/results-rows";
import { stepsUsedSince } from "../../../../worker/domain/jobs/step-cap";
import { findJobById } from "../../../../worker/domain/jobs/store";
import { PLAN_RESULTS_RETENTION } from "../../../../worker/domain/workspaces/plans";
import { kst } from "../../../../worker/web/kst";
import { alertCode, ConsoleBrowser } from "../../../support/workers/console-browser";
import { expireAt, finishedJob, jobRowOf, storedObjects, unitCommits } from "../../../support/workers/results-retention-helpers";
import { bankTransaction as tx, call, callJson, createWorkspace, jobInWorkspace, type TestWorkspace, TX_JOB } from "../../../support/workers/helpers";

type Json = Record<string, any>;
const DAY = 86_400_000;

const retention = (ws: TestWorkspace, days: unknown, key = ws.apiKey) => callJson<Json>("/api/v1/results-retention", { method: "PUT", key, json: { days } });
const row = jobRowOf;
/** As if the job's results had reached their expiry a minute ago. */
const expire = (jobId: string) => expireAt(jobId, Date.now() - 60_000);
const memberKey = async (ws: TestWorkspace) => (await issueApiKey(env.DB, { workspaceId: ws.workspaceId, name: "member", canManageKeys: false })).secret;

describe("the results retention setting", () => {
  it("starts at the plan's default, takes whole days up to the plan's maximum, and goes back to the default with null", async () => {
    const ws = await createWorkspace();
    const free = PLAN_RESULTS_RETENTION.FREE;
    expect((await callJson<Json>("/api/v1/results-retention", { key: ws.apiKey })).body).toEqual({ plan: "FREE", days: free.defaultDays, chosenDays: null, defaultDays: free.defaultDays, maxDays: free.maxDays });
    const set = await retention(ws, free.maxDays);
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ days: free.maxDays, chosenDays: free.maxDays });
    expect((await callJson<Json>("/api/v1/results-retention", { key: ws.apiKey })).body.days).toBe(free.maxDays);
    expect((await retention(ws, null)).body).toMatchObject({ days: free.defaultDays, chosenDays: null });
  });

  it("refuses a period past the plan's maximum, not a whole day, under a day, or not a number: 400 with a Korean message, nothing changed", async () => {
    const ws = await createWorkspace();
    await retention(ws, 3);
    for (const days of [PLAN_RESULTS_RETENTION.FREE.maxDays + 1, 0, -1, 1.5, 1e9, "30", true]) {
      const refused = await retention(ws, days);
      expect(refused.status, String(days)).toBe(400);
      expect(refused.body.code).toBe("INVALID_PARAM_FORMAT");
      expect(refused.body.message).toMatch(/[가-힣]/);
      expect(refused.body.fieldErrors[0].field).toBe("body.days");
    }
    expect((await retention(ws, PLAN_RESULTS_RETENTION.FREE.maxDays + 1)).body.message).toContain(`최대 ${PLAN_RESULTS_RETENTION.FREE.maxDays}일`);
    expect((await callJson<Json>("/api/v1/results-retention", { key: ws.apiKey })).body.days).toBe(3);
    expect((await callJson<Json>("/api/v1/results-retention", { method: "PUT", key: ws.apiKey, json: {} })).status).toBe(400);
  });

  it("follows the plan: a paid plan allows longer, and a downgrade caps a longer choice at the new maximum", async () => {
    const ws = await createWorkspace();
    await env.DB.prepare("UPDATE workspaces SET plan = 'PRO' WHERE id = ?").bind(ws.workspaceId).run();
    expect((await retention(ws, PLAN_RESULTS_RETENTION.PRO.maxDays)).status).toBe(200);
    expect((await retention(ws, PLAN_RESULTS_RETENTION.PRO.maxDays + 1)).status).toBe(400);
    await env.DB.prepare("UPDATE workspaces SET plan = 'FREE' WHERE id = ?").bind(ws.workspaceId).run();
    expect((await callJson<Json>("/api/v1/results-retention", { key: ws.apiKey })).body).toMatchObject({ days: PLAN_RESULTS_RETENTION.FREE.maxDays, chosenDays: PLAN_RESULTS_RETENTION.PRO.maxDays });
  });

  it("is changed only by a key that manages the workspace, and by its owner in the console with the same refusals", async () => {
    const ws = await createWorkspace();
    const refused = await retention(ws, 3, await memberKey(ws));
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe("ADMIN_ACTION_FORBIDDEN");

    const owner = new ConsoleBrowser();
    const { workspaceId } = await owner.signUp();
    const page = `/console/w/${workspaceId}/results-retention`;
    const words = (await owner.open(page)).html;
    expect(words).toContain(`최대 ${PLAN_RESULTS_RETENTION.FREE.maxDays}일`);
    expect(words).toMatch(/남습니다\. 무료 플랜/);
    const tooLong = await owner.post(page, { days: String(PLAN_RESULTS_RETENTION.FREE.maxDays + 1) });
    expect(tooLong.status).toBe(400);
    expect(alertCode(tooLong.html)).toBe("INVALID_PARAM_FORMAT");
    expect((await owner.post(page, { days: "abc" })).status).toBe(400);
    const saved = await owner.post(page, { days: "5" });
    expect(saved.status).toBe(200);
    expect(saved.html).toContain("5일로 정했습니다");
    expect((await env.DB.prepare("SELECT results_retention_days AS d FROM workspaces WHERE id = ?").bind(workspaceId).first<{ d: number }>())!.d).toBe(5);

    // The job page says until when its results are kept, and once they are gone says so where the preview was.
    const jobId = await jobInWorkspace(workspaceId, [[tx("a", "급여", 10)]], [0]);
    const stored = (await row(jobId))!;
    expect(stored.results_expire_at).toBe(stored.finished_at + 5 * DAY);
    const shown = await owner.open(`/console/w/${workspaceId}/jobs/${jobId}`);
    expect(shown.html).toContain(`결과 보관 기한: ${kst(stored.results_expire_at)}`);
    expect(shown.html).toContain('id="csv-download"');
    await expire(jobId);
    const after = await owner.open(`/console/w/${workspaceId}/jobs/${jobId}`);
    expect(after.status).toBe(200);
    expect(after.html).toContain('id="results-deleted"');
    expect(after.html).not.toContain('id="csv-download"');
  });
});

describe("a finished job's resultsExpireAt", () => {
  it("is its finish plus the retention set when it finished, on the API's job and the console's job page; a running job has none", async () => {
    const ws = await createWorkspace();
    await retention(ws, 3);
    const jobId = await finishedJob(ws);
    const stored = (await row(jobId))!;
    expect(stored.status).toBe("SUCCEEDED");
    expect(stored.results_expire_at).toBe(stored.finished_at + 3 * DAY);
    const job = await callJson<Json>(`/api/v1/data-jobs/${jobId}`, { key: ws.apiKey });
    expect(job.body).toMatchObject({ kind: "Succeeded", recordCount: 3, resultsExpireAt: new Date(stored.finished_at + 3 * DAY).toISOString() });
    // A later change applies to jobs finishing from then on.
    await retention(ws, 1);
    expect((await row(jobId))!.results_expire_at).toBe(stored.finished_at + 3 * DAY);

    const running = await jobInWorkspace(ws.workspaceId, [[tx("x", null, 1)], [tx("y", null, 2)]], [0]);
    expect((await callJson<Json>(`/api/v1/data-jobs/${running}`, { key: ws.apiKey })).body).not.toHaveProperty("resultsExpireAt");
  });
});

describe("results past their expiry", () => {
  it("are 410 DATA_JOB_RESULTS_DELETED as JSON, CSV and through a download link made before; the job itself still reads", async () => {
    const ws = await createWorkspace();
    const jobId = await finishedJob(ws);
    const link = await callJson<Json>(`/api/v1/data-jobs/${jobId}/download-links`, { method: "POST", key: ws.apiKey, json: { expiresInSeconds: 3600 } });
    expect(link.status).toBe(201);
    expect((await call(new URL(link.body.url).pathname)).status).toBe(200);
    await expire(jobId);
    for (const path of [`/api/v1/data-jobs/${jobId}/results`, `/api/v1/data-jobs/${jobId}/results.csv`]) {
      const gone = await callJson<Json>(path, { key: ws.apiKey });
      expect(gone.status, path).toBe(410);
      expect(gone.body.code).toBe("DATA_JOB_RESULTS_DELETED");
      expect(gone.body.message).toContain("보관 기간이 끝나");
    }
    const viaLink = await callJson<Json>(new URL(link.body.url).pathname);
    expect(viaLink.status).toBe(410);
    expect(viaLink.body.code).toBe("DATA_JOB_RESULTS_DELETED");
    const newLink = await callJson<Json>(`/api/v1/data-jobs/${jobId}/download-links`, { method: "POST", key: ws.apiKey, json: {} });
    expect(newLink.status).toBe(410);
    expect((await callJson<Json>(`/api/v1/data-jobs/${jobId}`, { key: ws.apiKey })).body).toMatchObject({ kind: "Succeeded", recordCount: 3 });
  });

  it("cannot be the base of an incremental job: params.since naming their job is 400 INVALID_CURSOR, saying why", async () => {
    const ws = await createWorkspace();
    const jobId = await finishedJob(ws);
    const { since } = (await callJson<Json>(`/api/v1/data-jobs/${jobId}`, { key: ws.apiKey })).body;
    expect(since).toEqual(expect.any(String));
    await expire(jobId);
    const refused = await callJson<Json>("/api/v1/data-jobs", { method: "POST", key: ws.apiKey, json: { ...TX_JOB, params: { ...TX_JOB.params, since } } });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: "INVALID_CURSOR", fieldErrors: [{ field: "body.params.since" }] });
    expect(refused.body.message).toContain("보관 기간");
  });

  it("bound a download link's life: a link never outlives the results it points to", async () => {
    const ws = await createWorkspace();
    const jobId = await finishedJob(ws);
    const soon = Date.now() + 10 * 60_000;
    await env.DB.prepare("UPDATE jobs SET results_expire_at = ? WHERE id = ?").bind(soon, jobId).run();
    const link = await callJson<Json>(`/api/v1/data-jobs/${jobId}/download-links`, { method: "POST", key: ws.apiKey, json: { expiresInSeconds: 7 * 24 * 3600 } });
    expect(link.status).toBe(201);
    expect(Date.parse(link.body.expiresAt)).toBe(Math.floor(soon / 1000) * 1000);
  });

  it("are not delivered: a route's delivery of deleted results ends FAILED at its first try, saying why", async () => {
    const ws = await createWorkspace();
    const route = await callJson<Json>("/api/v1/delivery-routes", {
      method: "POST",
      key: ws.apiKey,
      json: { kind: "S3", name: "보관 버킷", s3: { endpoint: env.TEST_S3_URL, bucket: "partner-bucket", region: "us-east-1", accessKeyId: "S3RVER", prefix: "retention/" }, secretAccessKey: "S3RVER" },
    });
    expect(route.status).toBe(201);
    const jobId = await finishedJob(ws);
    const delivery = (await insertDelivery(env.DB, route.body.id, jobId))!;
    expect((await call(`/api/v1/data-jobs/${jobId}/results`, { method: "DELETE", key: ws.apiKey })).status).toBe(200);
    const outcome = { acked: 0, retried: 0 };
    const message = { body: { deliveryId: delivery.id }, ack: () => outcome.acked++, retry: () => outcome.retried++ } as unknown as Message<RouteDeliveryMessage>;
    await consumeDeliveryBatch({ messages: [message] } as unknown as MessageBatch<RouteDeliveryMessage>, env, { findJobById, resultUnits });
    expect(outcome).toEqual({ acked: 1, retried: 0 });
    const after = await env.DB.prepare("SELECT status, attempts, last_error AS lastError FROM route_deliveries WHERE id = ?").bind(delivery.id).first<Json>();
    expect(after).toMatchObject({ status: "FAILED", attempts: 1 });
    expect(after!.lastError).toContain("삭제 요청에 따라");
  });
});

describe("DELETE /data-jobs/{id}/results", () => {
  it("deletes a finished job's results at once, keeps the job, and answers the same deletion when called again", async () => {
    const ws = await createWorkspace();
    const jobId = await finishedJob(ws);
    expect(await storedObjects(jobId)).toBeGreaterThan(0);
    expect(await unitCommits(jobId)).toBe(2);
    const deleted = await callJson<Json>(`/api/v1/data-jobs/${jobId}/results`, { method: "DELETE", key: ws.apiKey });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toMatchObject({ jobId, recordCount: 3, reason: "REQUESTED" });
    expect(await storedObjects(jobId)).toBe(0);
    expect(await unitCommits(jobId)).toBe(0);
    expect((await row(jobId))!.results_purged_at).not.toBeNull();
    const job = await callJson<Json>(`/api/v1/data-jobs/${jobId}`, { key: ws.apiKey });
    expect(job.body).toMatchObject({ kind: "Succeeded", recordCount: 3, resultsExpireAt: deleted.body.deletedAt });
    const again = await callJson<Json>(`/api/v1/data-jobs/${jobId}/results`, { method: "DELETE", key: ws.apiKey });
    expect(again).toMatchObject({ status: 200, body: deleted.body });
    const read = await callJson<Json>(`/api/v1/data-jobs/${jobId}/results`, { key: ws.apiKey });
    expect(read.status).toBe(410);
    expect(read.body.message).toContain("삭제 요청에 따라");
  });

  it("answers an expiry the cron has not reached yet as what it is, and refuses a running job with 409 DATA_JOB_NOT_FINISHED", async () => {
    const ws = await createWorkspace();
    const jobId = await finishedJob(ws);
    await expire(jobId);
    const expired = await callJson<Json>(`/api/v1/data-jobs/${jobId}/results`, { method: "DELETE", key: ws.apiKey });
    expect(expired.body).toMatchObject({ reason: "EXPIRED", recordCount: 3 });
    expect(await storedObjects(jobId)).toBe(0);

    const running = await jobInWorkspace(ws.workspaceId, [[tx("x", null, 1)], [tx("y", null, 2)]], [0]);
    const refused = await callJson<Json>(`/api/v1/data-jobs/${running}/results`, { method: "DELETE", key: ws.apiKey });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe("DATA_JOB_NOT_FINISHED");
    expect(refused.body.message).toMatch(/진행 중/);
    expect((await callJson<Json>(`/api/v1/data-jobs/${running}/results`, { key: ws.apiKey })).body.totalCount).toBe(1);
  });

  it("is the typed client's deleteResults, after which its results() throws the 410's code", async () => {
    const ws = await createWorkspace();
    const jobId = await finishedJob(ws);
    const client = new CollectClient({ baseUrl: "https://api.test", apiKey: ws.apiKey, fetch: (input, init) => exports.default.fetch(new Request(input, init)) });
    const first = await client.deleteResults(jobId);
    expect(first).toMatchObject({ jobId, reason: "REQUESTED", recordCount: 3 });
    expect(await client.deleteResults(jobId)).toEqual(first);
    await expect(client.results(jobId)).rejects.toMatchObject({ status: 410, code: "DATA_JOB_RESULTS_DELETED" });
    expect(await client.getJob(jobId)).toMatchObject({ kind: "Succeeded", resultsExpireAt: first!.deletedAt });
  });

  it("is refused to a key that does not manage the workspace, and to another workspace's key as not found", async () => {
    const ws = await createWorkspace();
    const jobId = await finishedJob(ws);
    expect((await callJson<Json>(`/api/v1/data-jobs/${jobId}/results`, { method: "DELETE", key: await memberKey(ws) })).body.code).toBe("ADMIN_ACTION_FORBIDDEN");
    const other = await createWorkspace();
    expect((await callJson<Json>(`/api/v1/data-jobs/${jobId}/results`, { method: "DELETE", key: other.apiKey })).status).toBe(404);
    expect(await storedObjects(jobId)).toBeGreaterThan(0);
  });

  it("gives no scraping steps back: a purged job's units still count toward the month's cap", async () => {
    const ws = await createWorkspace();
    const jobId = await finishedJob(ws);
    const monthStart = Date.now() - DAY;
    const before = await stepsUsedSince(env.DB, ws.workspaceId, monthStart);
    expect(before).toBe(2);
    await purgeJobResults(env, jobId, Date.now());
    expect(await unitCommits(jobId)).toBe(0);
    expect(await stepsUsedSince(env.DB, ws.workspaceId, monthStart)).toBe(before);
  });
});

describe("deleting a credential with deleteResults=true", () => {
  it("deletes its finished jobs' results with it; without the option they are kept; any other value is 400", async () => {
    const ws = await createWorkspace();
    const kept = await finishedJob(ws);
    const credentialId = (await row(kept))!.credential_id as string;
    const bad = await callJson<Json>(`/api/v1/credentials/${credentialId}?deleteResults=yes`, { method: "DELETE", key: ws.apiKey });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe("INVALID_PARAM_FORMAT");
    expect((await callJson<Json>(`/api/v1/credentials/${credentialId}?deleteResults=true`, { method: "DELETE", key: ws.apiKey })).status).toBe(204);
    const gone = await callJson<Json>(`/api/v1/data-jobs/${kept}/results`, { key: ws.apiKey });
    expect(gone.status).toBe(410);
    expect(gone.body.message).toContain("자격 증명과 함께");
    expect((await row(kept))!.results_deleted_reason).toBe("CREDENTIAL_DELETED");

    const other = await createWorkspace();
    const stays = await finishedJob(other);
    const otherCredential = (await row(stays))!.credential_id as string;
    expect((await call(`/api/v1/credentials/${otherCredential}`, { method: "DELETE", key: other.apiKey })).status).toBe(204);
    expect((await callJson<Json>(`/api/v1/data-jobs/${stays}/results`, { key: other.apiKey })).body.totalCount).toBe(3);
  });
});
