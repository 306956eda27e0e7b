import { env } from "cloudflare:workers";
import { AwsClient } from "aws4fetch";
import { describe, expect, it } from "vitest";
import { resendStalledRouteDeliveries } from "../../worker/domain/deliveries/consumer";
import { createJob } from "../../worker/domain/jobs/create";
import { addCredential, call, callJson, createWorkspace, type TestWorkspace, withCapturedQueue } from "./helpers";
import { alertCode, ConsoleBrowser } from "./console-browser";
import { harness, jobRow } from "./pipeline-harness";

type Json = Record<string, any>;
const ACCOUNTS_JOB = { providerCode: "sandbox.bank", schema: "bank.accounts.cb.v1", params: {} };
/** s3rver's own keys: it checks signatures made with them as S3 checks ours. */
const S3_KEYS = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" };

/** A workspace with a working bank credential. */
async function bankWorkspace(): Promise<TestWorkspace> {
  const ws = await createWorkspace();
  await addCredential(ws.workspaceId);
  return ws;
}

async function newRoute(ws: TestWorkspace, body: Json): Promise<Json> {
  const created = await callJson<Json>("/api/v1/delivery-routes", { method: "POST", key: ws.apiKey, json: body });
  expect(created.status).toBe(201);
  return created.body;
}

/** A succeeded job of the workspace (which holds a bank credential) with the route attached, run through the real pipeline and scraper. */
async function succeededJobTo(workspaceId: string, routeId: string): Promise<string> {
  const queue = withCapturedQueue();
  const job = await createJob(queue.env, workspaceId, { ...ACCOUNTS_JOB, deliveryRouteId: routeId });
  const h = harness();
  h.queued.push(...queue.sent);
  await h.drain();
  expect((await jobRow(job.id))!.status).toBe("SUCCEEDED");
  return job.id;
}

async function deliveryOf(ws: TestWorkspace, routeId: string, jobId: string, status: string): Promise<Json> {
  let found: Json | undefined;
  await expect
    .poll(async () => {
      found = ((await callJson<Json>(`/api/v1/delivery-routes/${routeId}/deliveries`, { key: ws.apiKey })).body.items as Json[]).find((d) => d.jobId === jobId);
      return found?.status;
    }, { timeout: 30_000 })
    .toBe(status);
  return found!;
}

const csvOf = async (ws: TestWorkspace, jobId: string) => (await call(`/api/v1/data-jobs/${jobId}/results.csv`, { key: ws.apiKey })).text();

describe("results delivered where partners need them", () => {
  it("land a succeeded job's CSV, JSON and manifest in an S3-compatible bucket, as the API serves them", async () => {
    const ws = await bankWorkspace();
    const route = await newRoute(ws, { kind: "S3", name: "회계 버킷", s3: { endpoint: env.TEST_S3_URL, bucket: "partner-bucket", region: "us-east-1", accessKeyId: S3_KEYS.accessKeyId, prefix: "collect/" }, secretAccessKey: S3_KEYS.secretAccessKey });
    expect(route).not.toHaveProperty("secretAccessKey");
    const jobId = await succeededJobTo(ws.workspaceId, route.id);

    const delivery = await deliveryOf(ws, route.id, jobId, "SENT");
    expect(delivery.files.map((f: Json) => f.name)).toEqual(["results.csv", "results.json", "manifest.json"]);
    const s3 = new AwsClient({ ...S3_KEYS, service: "s3", region: "us-east-1" });
    const object = async (name: string) => (await s3.fetch(`${env.TEST_S3_URL}/partner-bucket/collect/${jobId}/${name}`)).text();
    expect(await object("results.csv")).toBe(await csvOf(ws, jobId));
    expect(JSON.parse(await object("results.json"))).toEqual((await callJson<Json>(`/api/v1/data-jobs/${jobId}/results`, { key: ws.apiKey })).body);
    const manifest = JSON.parse(await object("manifest.json"));
    expect(manifest).toMatchObject({ jobId, providerCode: "sandbox.bank", schema: "bank.accounts.cb.v1", files: delivery.files.slice(0, 2) });
    expect(manifest.recordCount).toBeGreaterThan(0);

    // A delivery whose queue message was lost (pending, untouched for hours) is sent again by the cron's sweep.
    await s3.fetch(`${env.TEST_S3_URL}/partner-bucket/collect/${jobId}/manifest.json`, { method: "DELETE" });
    await env.DB.prepare("UPDATE route_deliveries SET status = 'PENDING', updated_at = ? WHERE id = ?").bind(Date.now() - 3 * 3_600_000, delivery.id).run();
    expect(await resendStalledRouteDeliveries(env)).toBeGreaterThanOrEqual(1);
    await deliveryOf(ws, route.id, jobId, "SENT");
    expect(JSON.parse(await object("manifest.json"))).toMatchObject({ jobId });
  });

  it("land them on an SFTP server whose host key is the one named, and refuse a server with another key", async () => {
    const ws = await bankWorkspace();
    const sftp = { host: "127.0.0.1", port: Number(env.TEST_SFTP_PORT), username: "partner", directory: "incoming" };
    const route = await newRoute(ws, { kind: "SFTP", name: "세무사 SFTP", sftp: { ...sftp, hostKeySha256: env.TEST_SFTP_HOST_KEY_SHA256 }, secret: env.TEST_SFTP_PASSWORD });
    const jobId = await succeededJobTo(ws.workspaceId, route.id);
    await deliveryOf(ws, route.id, jobId, "SENT");
    expect(await (await fetch(`${env.TEST_SFTP_FILES_URL}/incoming/${jobId}/results.csv`)).text()).toBe(await csvOf(ws, jobId));
    expect(JSON.parse(await (await fetch(`${env.TEST_SFTP_FILES_URL}/incoming/${jobId}/manifest.json`)).text())).toMatchObject({ jobId });

    // A server answering with another key gets nothing: the try fails and is kept for later, until the route goes.
    const impostor = await newRoute(ws, { kind: "SFTP", name: "다른 키", sftp: { ...sftp, directory: "elsewhere", hostKeySha256: "A".repeat(43) }, secret: env.TEST_SFTP_PASSWORD });
    const refusedJob = await succeededJobTo(ws.workspaceId, impostor.id);
    await expect.poll(async () => ((await callJson<Json>(`/api/v1/delivery-routes/${impostor.id}/deliveries`, { key: ws.apiKey })).body.items as Json[])[0]?.lastError ?? null, { timeout: 30_000 }).toMatch(/SFTP/);
    expect((await fetch(`${env.TEST_SFTP_FILES_URL}/elsewhere/${refusedJob}/results.csv`)).status).toBe(404);
    expect((await call(`/api/v1/delivery-routes/${impostor.id}`, { method: "DELETE", key: ws.apiKey })).status).toBe(204);
    // Its next try finds the route gone and ends the delivery (the route's log is no longer served once it is deleted).
    await expect.poll(async () => (await env.DB.prepare("SELECT status FROM route_deliveries WHERE job_id = ?").bind(refusedJob).first<{ status: string }>())?.status, { timeout: 30_000 }).toBe("FAILED");
  });

  it("are managed in the console: an owner adds a bucket by form (a wrong one refused with the API's code), sees no secret, follows a job's delivery in the route's log, and deletes it", async () => {
    const browser = new ConsoleBrowser();
    const { workspaceId } = await browser.signUp();
    await addCredential(workspaceId);
    const page = `/console/w/${workspaceId}/delivery-routes`;
    expect((await browser.open(page)).html).toContain("경로가 없습니다");
    const bucket = { kind: "S3", name: "콘솔 버킷", endpoint: env.TEST_S3_URL, bucket: "partner-bucket", region: "us-east-1", accessKeyId: S3_KEYS.accessKeyId, prefix: "console/", secret: S3_KEYS.secretAccessKey };
    const refused = await browser.post(page, { ...bucket, bucket: "Not_A_Bucket" });
    expect(refused.status).toBe(400);
    expect(alertCode(refused.html)).toBe("INVALID_PARAM_FORMAT");
    const added = await browser.post(page, bucket);
    expect(added.status).toBe(201);
    expect(added.html).toContain(`${env.TEST_S3_URL} · partner-bucket/console/`);
    const routeId = /data-route-id="([0-9a-f-]{36})"/.exec(added.html)![1]!;
    const sftpPassword = `pw-${crypto.randomUUID()}`;
    const sftp = await browser.post(page, { kind: "SFTP", name: "콘솔 SFTP", host: "127.0.0.1", port: env.TEST_SFTP_PORT, username: "partner", hostKeySha256: env.TEST_SFTP_HOST_KEY_SHA256, secret: sftpPassword });
    expect(sftp.status).toBe(201);
    expect(sftp.html).toContain(`partner@127.0.0.1:${env.TEST_SFTP_PORT}/`);
    expect(sftp.html).not.toContain(sftpPassword);

    const jobId = await succeededJobTo(workspaceId, routeId);
    await expect.poll(async () => /data-status="SENT"/.test((await browser.open(`${page}/${routeId}`)).html), { timeout: 30_000 }).toBe(true);
    const log = (await browser.open(`${page}/${routeId}`)).html;
    expect(log).toContain(`/console/w/${workspaceId}/jobs/${jobId}`);
    expect(log).toMatch(/results\.csv \([\d,]+ B\), results\.json \([\d,]+ B\), manifest\.json/);

    const deleted = await browser.post(`${page}/${routeId}/delete`, {});
    expect(deleted.status).toBe(200);
    expect(deleted.html).not.toContain(`data-route-id="${routeId}"`);
    expect(alertCode((await browser.post(`${page}/${routeId}/delete`, {})).html)).toBe("RESOURCE_NOT_FOUND");
  });

  it("refuse a job or schedule naming a route that is not the workspace's: 400 DELIVERY_ROUTE_NOT_FOUND, nothing stored", async () => {
    const [ws, other] = await Promise.all([createWorkspace(), createWorkspace()]);
    const theirs = await newRoute(other, { kind: "S3", name: "남의 버킷", s3: { endpoint: env.TEST_S3_URL, bucket: "partner-bucket", accessKeyId: "x" }, secretAccessKey: "y" });
    for (const deliveryRouteId of [crypto.randomUUID(), theirs.id]) {
      const refused = await callJson<Json>("/api/v1/data-jobs", { method: "POST", key: ws.apiKey, json: { ...ACCOUNTS_JOB, deliveryRouteId } });
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({ code: "DELIVERY_ROUTE_NOT_FOUND", fieldErrors: [{ field: "body.deliveryRouteId", code: "DELIVERY_ROUTE_NOT_FOUND" }] });
      const schedule = await callJson<Json>("/api/v1/schedules", { method: "POST", key: ws.apiKey, json: { ...ACCOUNTS_JOB, cron: "0 3 * * *", deliveryRouteId } });
      expect(schedule.body.code).toBe("DELIVERY_ROUTE_NOT_FOUND");
    }
    expect((await callJson<Json>("/api/v1/data-jobs", { key: ws.apiKey })).body.items).toEqual([]);
    const listed = await callJson<Json>("/api/v1/delivery-routes", { key: other.apiKey });
    expect(listed.body.items).toEqual([expect.objectContaining({ id: theirs.id, kind: "S3", s3: expect.objectContaining({ accessKeyId: "x" }) })]);
    expect(JSON.stringify(listed.body)).not.toContain('"y"');
  });
});
