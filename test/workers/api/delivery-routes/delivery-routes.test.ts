import { env } from "cloudflare:workers";
import { AwsClient } from "aws4fetch";
import { describe, expect, it } from "vitest";
import { resendStalledRouteDeliveries } from "../../../../worker/domain/deliveries/consumer";
import { createJob } from "../../../../worker/domain/jobs/create";
import { issueApiKey } from "../../../../worker/domain/api-keys/store";
import { addCredential, call, callJson, createWorkspace, type TestWorkspace, withCapturedQueue } from "../../../support/workers/helpers";
import { alertCode, ConsoleBrowser } from "../../../support/workers/console-browser";
import { harness, jobRow } from "../../../support/workers/pipeline-harness";

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

  it("erase a deleted route's sealed secret, keeping where and as whom for its log", async () => {
    const ws = await createWorkspace();
    const route = await newRoute(ws, { kind: "S3", name: "지울 버킷", s3: { endpoint: env.TEST_S3_URL, bucket: "partner-bucket", accessKeyId: "x" }, secretAccessKey: "to-be-erased" });
    const row = () => env.DB.prepare("SELECT name, config, sealed_secret AS sealed, deleted_at AS deletedAt FROM delivery_routes WHERE id = ?").bind(route.id).first<Json>();
    expect((await row())!.sealed).toEqual(expect.any(String));
    expect((await call(`/api/v1/delivery-routes/${route.id}`, { method: "DELETE", key: ws.apiKey })).status).toBe(204);
    const deleted = (await row())!;
    expect(deleted).toMatchObject({ name: "지울 버킷", sealed: null, deletedAt: expect.any(Number) });
    expect(JSON.parse(deleted.config)).toMatchObject({ endpoint: env.TEST_S3_URL, bucket: "partner-bucket", accessKeyId: "x" });
  });

  it("are shown, with their logs, only to keys that may manage them, as the console shows them to owners only", async () => {
    const ws = await createWorkspace();
    const memberKey = (await issueApiKey(env.DB, { workspaceId: ws.workspaceId, name: "데이터 전용" })).secret;
    const route = await newRoute(ws, { kind: "S3", name: "정산 버킷", s3: { endpoint: env.TEST_S3_URL, bucket: "partner-bucket", accessKeyId: "x" }, secretAccessKey: "s" });
    for (const path of ["/api/v1/delivery-routes", `/api/v1/delivery-routes/${route.id}/deliveries`, `/api/v1/delivery-routes/${crypto.randomUUID()}/deliveries`]) {
      const refused = await callJson<Json>(path, { key: memberKey });
      expect([path, refused.status, refused.body.code]).toEqual([path, 403, "ADMIN_ACTION_FORBIDDEN"]);
      expect(refused.body.message).toContain("결과 전달 경로 변경");
    }
    expect((await callJson<Json>("/api/v1/delivery-routes", { key: ws.apiKey })).body.items.map((r: Json) => r.id)).toEqual([route.id]);
    expect((await callJson<Json>(`/api/v1/delivery-routes/${route.id}/deliveries`, { key: ws.apiKey })).body).toEqual({ items: [], nextCursor: null });
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

describe("where a route may deliver: public destinations only (the webhook URL rules)", () => {
  /** The deployment's own configuration: no local allowance (WEBHOOK_ALLOW_LOCAL_URLS), as in production. */
  const production = { ...env, WEBHOOK_ALLOW_LOCAL_URLS: undefined };
  const s3Route = (endpoint: string) => ({ kind: "S3", name: "버킷", s3: { endpoint, bucket: "partner-bucket", accessKeyId: "AKIA" }, secretAccessKey: "s" });
  const sftpRoute = (host: string, port = 22) => ({ kind: "SFTP", name: "서버", sftp: { host, port, username: "partner", hostKeySha256: env.TEST_SFTP_HOST_KEY_SHA256 }, secret: "pw" });

  it.each([
    ["cloud metadata over http", s3Route("http://169.254.169.254/latest")],
    ["cloud metadata over https", s3Route("https://169.254.169.254/latest")],
    ["a private IPv4 address", s3Route("https://10.0.0.1")],
    ["a unique local IPv6 address", s3Route("https://[fd00::1]")],
    ["an IPv4-mapped loopback", s3Route("https://[::ffff:127.0.0.1]/")],
    ["a metadata name", s3Route("https://metadata.google.internal")],
    ["another scheme", s3Route("gopher://s3.partner.example:70/_GET")],
    ["loopback written as a number", s3Route("https://2130706433/")],
    ["loopback, where this machine is not allowed", s3Route(env.TEST_S3_URL)],
    ["a public name on an internal service's port", s3Route("https://s3.partner.example:6379")],
    ["user info in the endpoint", s3Route("https://user:pass@s3.partner.example")],
    ["an SFTP server at a private IPv4 address", sftpRoute("10.1.2.3")],
    ["an SFTP server at cloud metadata", sftpRoute("169.254.169.254", 80)],
    ["an SFTP server at a link-local IPv6 address", sftpRoute("fe80::1")],
    ["an SFTP server named localhost", sftpRoute("localhost")],
    ["an SFTP server on loopback written as a number", sftpRoute("2130706433")],
    ["an SFTP server with an internal name", sftpRoute("files.corp.internal")],
    ["an SFTP server named without a dot", sftpRoute("fileserver")],
    ["an SFTP host with a port or a path in it", sftpRoute("files.partner.example:22/x")],
  ])("refuse %s with 400 INVALID_PARAM_FORMAT, a Korean message on the field, and store nothing", async (_name, body) => {
    const ws = await createWorkspace();
    const res = await callJson<Json>("/api/v1/delivery-routes", { method: "POST", key: ws.apiKey, json: body, env: production });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: "INVALID_PARAM_FORMAT", message: expect.stringMatching(/[가-힣]/) });
    expect(res.body.fieldErrors).toEqual([{ field: body.kind === "S3" ? "body.s3.endpoint" : "body.sftp.host", code: "INVALID_PARAM_FORMAT", message: expect.stringMatching(/[가-힣]/) }]);
    expect((await env.DB.prepare("SELECT COUNT(*) AS n FROM delivery_routes WHERE workspace_id = ?").bind(ws.workspaceId).first<{ n: number }>())!.n).toBe(0);
  });

  it("take public https endpoints on 443 or 8443 and public SFTP servers on any port; this machine only where the local stack allows it", async () => {
    const ws = await createWorkspace();
    for (const body of [
      s3Route("https://s3.ap-northeast-2.amazonaws.com"),
      s3Route("https://account.r2.cloudflarestorage.com:8443/"),
      s3Route("https://8.8.8.8"),
      sftpRoute("sftp.partner.example", 2222),
      sftpRoute("8.8.8.8"),
      sftpRoute("2606:4700:4700::1111"),
    ]) {
      const res = await callJson<Json>("/api/v1/delivery-routes", { method: "POST", key: ws.apiKey, json: body, env: production });
      expect(res.status, JSON.stringify(body)).toBe(201);
    }
    // The local stack's allowance reaches loopback only: never another private address.
    expect((await callJson<Json>("/api/v1/delivery-routes", { method: "POST", key: ws.apiKey, json: sftpRoute("127.0.0.1", 2222) })).status).toBe(201);
    expect((await callJson<Json>("/api/v1/delivery-routes", { method: "POST", key: ws.apiKey, json: sftpRoute("10.1.2.3") })).body.code).toBe("INVALID_PARAM_FORMAT");
    expect((await callJson<Json>("/api/v1/delivery-routes", { method: "POST", key: ws.apiKey, json: s3Route("http://169.254.169.254/latest") })).body.code).toBe("INVALID_PARAM_FORMAT");
  });

  it("check a stored route again before every try: one written around the API gets nothing, and its log says why", async () => {
    const ws = await bankWorkspace();
    const bucket = await newRoute(ws, { kind: "S3", name: "바뀐 버킷", s3: { endpoint: env.TEST_S3_URL, bucket: "partner-bucket", accessKeyId: S3_KEYS.accessKeyId }, secretAccessKey: S3_KEYS.secretAccessKey });
    const server = await newRoute(ws, { kind: "SFTP", name: "바뀐 서버", sftp: { host: "127.0.0.1", port: Number(env.TEST_SFTP_PORT), username: "partner", hostKeySha256: env.TEST_SFTP_HOST_KEY_SHA256 }, secret: env.TEST_SFTP_PASSWORD });
    const moveTo = (routeId: string, change: Json) => env.DB.prepare("UPDATE delivery_routes SET config = json_patch(config, ?) WHERE id = ?").bind(JSON.stringify(change), routeId).run();
    await moveTo(bucket.id, { endpoint: "https://169.254.169.254/latest" });
    await moveTo(server.id, { host: "10.1.2.3" });
    for (const route of [bucket, server]) {
      const jobId = await succeededJobTo(ws.workspaceId, route.id);
      const lastError = async () => (await env.DB.prepare("SELECT last_error AS e FROM route_deliveries WHERE route_id = ? AND job_id = ?").bind(route.id, jobId).first<{ e: string | null }>())?.e ?? null;
      await expect.poll(lastError, { timeout: 30_000 }).toMatch(/^refused: .*(IPv4|사설)/);
      expect(await lastError()).toMatch(route.kind === "S3" ? /S3 주소/ : /SFTP 서버/);
      // Deleted, so its tries end.
      expect((await call(`/api/v1/delivery-routes/${route.id}`, { method: "DELETE", key: ws.apiKey })).status).toBe(204);
    }
  });

  it("follow no redirect, and keep only the status and S3's error code of a refusal, never what the destination answered", async () => {
    const ws = await bankWorkspace();
    const name = crypto.randomUUID();
    const standIn = (answer: string) => `${env.TEST_WEBHOOK_RECEIVER_URL}/s3-stand-in/${name}/${answer}`;
    const received = async () => (await (await fetch(`${env.TEST_WEBHOOK_RECEIVER_URL}/received/${name}`)).json()) as { headers: Record<string, string>; answered: number }[];

    // A destination that redirects: the signed PUT is not sent on to where it points.
    const redirecting = await newRoute(ws, { kind: "S3", name: "리디렉션", s3: { endpoint: standIn("redirect"), bucket: "partner-bucket", accessKeyId: S3_KEYS.accessKeyId }, secretAccessKey: S3_KEYS.secretAccessKey });
    const redirectedJob = await succeededJobTo(ws.workspaceId, redirecting.id);
    const lastErrorOf = (routeId: string, jobId: string) => async () => (await env.DB.prepare("SELECT last_error AS e FROM route_deliveries WHERE route_id = ? AND job_id = ?").bind(routeId, jobId).first<{ e: string | null }>())?.e ?? null;
    await expect.poll(lastErrorOf(redirecting.id, redirectedJob), { timeout: 30_000 }).toBe(`PUT ${redirectedJob}/results.csv: S3 answered 307`);
    const hits = await received();
    expect(hits.length).toBeGreaterThan(0);
    expect(hits.map((h) => h.headers["x-path"] ?? "").filter((p) => p.includes("/landed/"))).toEqual([]);
    expect((await call(`/api/v1/delivery-routes/${redirecting.id}`, { method: "DELETE", key: ws.apiKey })).status).toBe(204);

    // A destination that refuses with a page in its answer: the log keeps the status and S3's code, nothing of the page.
    const denying = await newRoute(ws, { kind: "S3", name: "거절", s3: { endpoint: standIn("deny"), bucket: "partner-bucket", accessKeyId: S3_KEYS.accessKeyId }, secretAccessKey: S3_KEYS.secretAccessKey });
    const deniedJob = await succeededJobTo(ws.workspaceId, denying.id);
    await expect.poll(lastErrorOf(denying.id, deniedJob), { timeout: 30_000 }).toBe(`PUT ${deniedJob}/results.csv: S3 answered 403 AccessDenied`);
    const log = await callJson<Json>(`/api/v1/delivery-routes/${denying.id}/deliveries`, { key: ws.apiKey });
    expect(log.body.items[0].lastError).toBe(`PUT ${deniedJob}/results.csv: S3 answered 403 AccessDenied`);
    expect(JSON.stringify(log.body)).not.toMatch(/hunter2|internal admin|<html/);
    expect((await call(`/api/v1/delivery-routes/${denying.id}`, { method: "DELETE", key: ws.apiKey })).status).toBe(204);
  });
});
