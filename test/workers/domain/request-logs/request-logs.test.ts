import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { issueApiKey } from "../../../../worker/domain/api-keys/store";
import { REDACTED } from "../../../../worker/domain/request-logs/redaction";
import type { RequestLogEntry } from "../../../../worker/domain/request-logs/messages";
import { findRequestLog, insertRequestLogs, purgeOldRequestLogDays, purgeOldRequestLogs, REQUEST_LOG_RETENTION_MS } from "../../../../worker/domain/request-logs/store";
import { PURGE_BATCH } from "../../../../worker/domain/retention/purge";
import { DAY_MS, kstDate } from "../../../../contracts/korean-time";
import { call, callJson, createWorkspace, dispatchToQueue, queueDeliveries, type TestWorkspace } from "../../../support/workers/helpers";
import { asPartner, connectionTo, partnerWithConnection } from "../../../support/workers/partner-helpers";
import { logEntry, logged, logId, sent } from "../../../support/workers/request-log-helpers";

type Json = Record<string, any>;

const list = (ws: TestWorkspace, query = "") => callJson<Json>(`/api/v1/request-logs${query}`, { key: ws.apiKey });
const detail = (ws: TestWorkspace, requestId: string) => callJson<Json>(`/api/v1/request-logs/${requestId}`, { key: ws.apiKey });
const idsOf = (page: Json) => (page.items as Json[]).map((item) => item.requestId as string);

describe("the request log", () => {
  it("logs requests of several kinds with their method, path, status, error code, latency, key and Idempotency-Key", async () => {
    const ws = await createWorkspace();
    const listed = await sent("/api/v1/data-jobs?limit=5", { key: ws.apiKey });
    const invalid = await sent("/api/v1/data-jobs", { method: "POST", key: ws.apiKey, json: { providerCode: "sandbox.bank" }, headers: { "Idempotency-Key": "retry-7" } });
    const unknownJob = await sent(`/api/v1/data-jobs/${crypto.randomUUID()}`, { key: ws.apiKey });
    const noRoute = await sent("/api/v1/no-such-thing", { key: ws.apiKey });
    const wrongMethod = await sent("/api/v1/providers", { method: "DELETE", key: ws.apiKey });
    expect([listed.status, invalid.status, unknownJob.status, noRoute.status, wrongMethod.status]).toEqual([200, 400, 404, 404, 405]);
    await logged(ws.workspaceId, listed.requestId, invalid.requestId, unknownJob.requestId, noRoute.requestId, wrongMethod.requestId);

    const page = await list(ws, "?limit=100");
    expect(page.status).toBe(200);
    const byId = new Map((page.body.items as Json[]).map((item) => [item.requestId, item]));
    const key = { id: ws.apiKeyId, prefix: ws.apiKey.slice(0, 10) };
    expect(byId.get(listed.requestId)).toMatchObject({ method: "GET", path: "/api/v1/data-jobs", status: 200, errorCode: null, apiKey: key, idempotencyKey: null });
    expect(byId.get(invalid.requestId)).toMatchObject({ method: "POST", path: "/api/v1/data-jobs", status: 400, errorCode: "MISSING_REQUIRED_PARAM", apiKey: key, idempotencyKey: "retry-7" });
    expect(byId.get(unknownJob.requestId)).toMatchObject({ method: "GET", status: 404, errorCode: "DATA_JOB_NOT_FOUND" });
    expect(byId.get(noRoute.requestId)).toMatchObject({ path: "/api/v1/no-such-thing", status: 404, errorCode: "RESOURCE_NOT_FOUND" });
    expect(byId.get(wrongMethod.requestId)).toMatchObject({ method: "DELETE", status: 405, errorCode: "METHOD_NOT_ALLOWED" });
    for (const item of byId.values()) {
      expect(item.latencyMs).toBeGreaterThanOrEqual(0);
      expect(Date.parse(item.createdAt)).toBeGreaterThan(Date.now() - 120_000);
    }
    // Newest first.
    const created = (page.body.items as Json[]).map((item) => Date.parse(item.createdAt));
    expect(created).toEqual([...created].sort((a, b) => b - a));

    const one = await detail(ws, invalid.requestId);
    expect(one.status).toBe(200);
    expect(one.body.request).toEqual({ query: null, body: { providerCode: "sandbox.bank" } });
    expect(one.body.errorBody).toMatchObject({ code: "MISSING_REQUIRED_PARAM", requestId: invalid.requestId });
    expect(one.body.errorBody.fieldErrors.map((f: Json) => f.field)).toContain("body.schema");
    expect((await detail(ws, listed.requestId)).body).toMatchObject({ request: { query: { limit: "5" }, body: null }, errorBody: null });
    // The key itself is nowhere in the log.
    expect(JSON.stringify(await env.DB.prepare("SELECT * FROM request_logs WHERE workspace_id = ?").bind(ws.workspaceId).all())).not.toContain(ws.apiKey);
  });

  it("filters by status, error code, key, method, path and time, and finds a request by its id", async () => {
    const ws = await createWorkspace();
    const other = await issueApiKey(env.DB, { workspaceId: ws.workspaceId, name: "second" });
    const first = await sent("/api/v1/providers", { key: ws.apiKey });
    const between = Date.now() + 1;
    await new Promise((resolve) => setTimeout(resolve, 5));
    const missing = await sent(`/api/v1/data-jobs/${crypto.randomUUID()}`, { key: other.secret });
    const bad = await sent("/api/v1/data-jobs?limit=0", { key: other.secret });
    const posted = await sent("/api/v1/data-jobs", { method: "POST", key: ws.apiKey, json: {} });
    await logged(ws.workspaceId, first.requestId, missing.requestId, bad.requestId, posted.requestId);

    const ids = async (query: string) => {
      const page = await list(ws, query);
      expect(page.status, JSON.stringify(page.body)).toBe(200);
      return idsOf(page.body);
    };
    expect(await ids(`?keyId=${other.row.id}`)).toEqual([bad.requestId, missing.requestId]);
    expect(await ids("?status=404")).toEqual([missing.requestId]);
    expect(await ids("?status=4xx&method=GET")).toEqual([bad.requestId, missing.requestId]);
    expect(await ids("?status=200,5xx&path=/api/v1/providers")).toEqual([first.requestId]);
    expect(await ids("?errorCode=DATA_JOB_NOT_FOUND")).toEqual([missing.requestId]);
    expect(await ids("?method=POST")).toEqual([posted.requestId]);
    expect(await ids(`?path=/api/v1/data-jobs&to=${new Date(between).toISOString()}`)).toEqual([]);
    expect(await ids(`?path=/api/v1/data-jobs&from=${new Date(between).toISOString()}`)).toEqual([posted.requestId, bad.requestId, missing.requestId]);
    expect(await ids(`?path=/api/v1/providers&to=${new Date(between).toISOString()}`)).toEqual([first.requestId]);

    const found = await detail(ws, missing.requestId);
    expect(found.body).toMatchObject({ requestId: missing.requestId, status: 404, errorCode: "DATA_JOB_NOT_FOUND", apiKey: { id: other.row.id, prefix: other.row.prefix } });
    const unknown = await detail(ws, "req_00000000000000000000000000000000");
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe("RESOURCE_NOT_FOUND");
    expect(unknown.body.message).toMatch(/[가-힣]/);
  });

  it("pages newest first with an opaque cursor bound to its filters", async () => {
    const ws = await createWorkspace();
    const requests = [];
    for (let i = 0; i < 5; i++) requests.push((await sent(`/api/v1/providers?n=${i}`, { key: ws.apiKey })).requestId);
    await logged(ws.workspaceId, ...requests);

    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: { status: number; body: Json } = await list(ws, `?path=/api/v1/providers&limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
      expect(page.status).toBe(200);
      expect(page.body.items.length).toBeLessThanOrEqual(2);
      seen.push(...idsOf(page.body));
      cursor = page.body.nextCursor;
      pages++;
    } while (cursor && pages < 10);
    expect(pages).toBe(3);
    expect(seen).toEqual([...requests].reverse());

    const firstPage = await list(ws, "?path=/api/v1/providers&limit=2");
    const elsewhere = await list(ws, `?path=/api/v1/data-jobs&limit=2&cursor=${encodeURIComponent(firstPage.body.nextCursor)}`);
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.body.code).toBe("INVALID_CURSOR");
    const made = await list(ws, "?cursor=not-a-cursor");
    expect(made.status).toBe(400);
    expect(made.body.code).toBe("INVALID_CURSOR");
  });

  it("never shows a workspace another workspace's requests", async () => {
    const mine = await createWorkspace();
    const theirs = await createWorkspace();
    const theirRequest = await sent("/api/v1/providers", { key: theirs.apiKey });
    const myRequest = await sent("/api/v1/providers", { key: mine.apiKey });
    await logged(theirs.workspaceId, theirRequest.requestId);
    await logged(mine.workspaceId, myRequest.requestId);

    const page = await list(mine, "?limit=100");
    expect(idsOf(page.body)).toContain(myRequest.requestId);
    expect(idsOf(page.body)).not.toContain(theirRequest.requestId);
    expect(idsOf((await list(mine, `?keyId=${theirs.apiKeyId}`)).body)).toEqual([]);
    const looked = await detail(mine, theirRequest.requestId);
    expect(looked.status).toBe(404);
    expect(looked.body.code).toBe("RESOURCE_NOT_FOUND");
    expect((await detail(theirs, theirRequest.requestId)).status).toBe(200);
  });

  it("logs a partner's call for a business in the partner's own log, not the business's", async () => {
    const partner = await partnerWithConnection("1208800767");
    const business = await connectionTo(partner, "1208800767");
    const forBusiness = await sent("/api/v1/credentials", asPartner(partner.apiKey, "120-88-00767"));
    expect(forBusiness.status).toBe(200);
    await logged(partner.workspaceId, forBusiness.requestId);
    expect(await findRequestLog(env.DB, business.workspaceId, forBusiness.requestId)).toBeUndefined();
  });

  it("keeps no password, credential field, secret or token of a request", async () => {
    const ws = await createWorkspace();
    const password = `pw-${crypto.randomUUID()}`;
    const loginId = `login-${crypto.randomUUID().slice(0, 8)}`;
    const registered = await sent("/api/v1/credentials", {
      method: "POST",
      key: ws.apiKey,
      json: { providerCode: "sandbox.bank", authMethod: "PROVIDER_LOGIN", fields: { loginId, password }, label: "본점 계좌" },
    });
    expect(registered.status).toBe(201);
    const token = `tok-${crypto.randomUUID()}`;
    const queried = await sent(`/api/v1/providers?sessionToken=${token}&note=plain`, { key: ws.apiKey });
    // A route whose body the log keeps (LOGS_BODY), sent a secret-named field all the same.
    const job = await sent("/api/v1/data-jobs", { method: "POST", key: ws.apiKey, json: { providerCode: "sandbox.bank", params: { password, note: "plain" } } });
    await logged(ws.workspaceId, registered.requestId, queried.requestId, job.requestId);

    // A credential's registration keeps no body at all: its route is not on the log's allowlist.
    expect((await detail(ws, registered.requestId)).body.request.body).toBeNull();
    expect((await detail(ws, job.requestId)).body.request.body).toEqual({ providerCode: "sandbox.bank", params: { password: REDACTED, note: "plain" } });
    expect((await detail(ws, queried.requestId)).body.request.query).toEqual({ sessionToken: REDACTED, note: "plain" });
    const stored = JSON.stringify((await env.DB.prepare("SELECT * FROM request_logs WHERE workspace_id = ?").bind(ws.workspaceId).all()).results);
    for (const secret of [password, loginId, token, ws.apiKey]) expect(stored).not.toContain(secret);
  });

  it("lets only a key that manages the workspace read the log", async () => {
    const ws = await createWorkspace();
    const member = await issueApiKey(env.DB, { workspaceId: ws.workspaceId, name: "collector" });
    const refused = await callJson<Json>("/api/v1/request-logs", { key: member.secret });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe("ADMIN_ACTION_FORBIDDEN");
  });

  it("carries an isolate's requests of a moment in one queue message, which the consumer writes", async () => {
    const ws = await createWorkspace();
    const queue = (env as Env).REQUEST_LOGS;
    const messages: number[] = [];
    // The real queue, counted on its way: the messages still go through it to the consumer.
    const counted = { send: (body: unknown[], options: QueueSendOptions) => (messages.push(body.length), queue.send(body as never, options)) } as unknown as Env["REQUEST_LOGS"];
    const answers = await Promise.all(Array.from({ length: 20 }, () => sent("/api/v1/providers", { key: ws.apiKey, env: { ...(env as Env), REQUEST_LOGS: counted } })));
    await logged(ws.workspaceId, ...answers.map((answer) => answer.requestId));
    expect(messages.reduce((sum, entries) => sum + entries, 0)).toBe(20);
    // Twenty requests answered together leave a message or two, never one each (at most ten: two a message at least).
    expect(messages.length).toBeLessThanOrEqual(10);
  });

  it("writes a message of one entry, as queued before messages carried several, beside one of several", async () => {
    const ws = await createWorkspace();
    const entry = (id: string) => logEntry(ws, { id });
    const [single, first, second] = ["single", "first", "second"].map(logId);
    const result = await dispatchToQueue("collect-request-logs", queueDeliveries<unknown>([entry(single!), [entry(first!), entry(second!)]]));
    expect(result.ackAll).toBe(true);
    for (const id of [single, first, second]) expect(await findRequestLog(env.DB, ws.workspaceId, id!)).toBeDefined();
  });

  it("answers even when the log's queue refuses the entry, and says so in the worker's log", async () => {
    const ws = await createWorkspace();
    const failing = { send: () => Promise.reject(new Error("Queue send failed")) } as unknown as Env["REQUEST_LOGS"];
    const errors = vi.spyOn(console, "error");
    try {
      const response = await call("/api/v1/providers", { key: ws.apiKey, env: { ...(env as Env), REQUEST_LOGS: failing } });
      expect(response.status).toBe(200);
      const requestId = response.headers.get("X-Request-Id")!;
      // The entry waits out the isolate's gather (a second) and the send's two retries before the failure is logged.
      await vi.waitFor(() => expect(errors.mock.calls.some(([line]) => String(line).includes("request-log-send-failed") && String(line).includes(requestId))).toBe(true), { timeout: 5_000 });
    } finally {
      errors.mockRestore();
    }
  });

  it("is purged after 30 days, in bounded deletes", async () => {
    const ws = await createWorkspace();
    const now = Date.now();
    const row = (id: string, createdAt: number, entry: Partial<RequestLogEntry> = {}) => logEntry(ws, { id, createdAt, ...entry });
    const [old, young, refused] = [logId("old"), logId("young"), logId("refused")];
    const refusedAt = now - REQUEST_LOG_RETENTION_MS - 2 * DAY_MS;
    // The old rows are written after a younger one (a retried message), and one is a rate limit's fold, which no
    // day's budget is charged for: the purge finds each through its day's counter all the same.
    await insertRequestLogs(env.DB, [row(young, now - REQUEST_LOG_RETENTION_MS + 3_600_000)]);
    const fold = { status: 429, errorCode: "API_RATE_LIMITED", collapseKey: `${ws.apiKeyId}:${refusedAt}` };
    await insertRequestLogs(env.DB, [row(old, now - REQUEST_LOG_RETENTION_MS - 60_000), row(refused, refusedAt, fold)]);
    const days = async () => (await env.DB.prepare("SELECT day FROM request_log_days WHERE workspace_id = ? ORDER BY day").bind(ws.workspaceId).all<{ day: string }>()).results.map((d) => d.day);
    // A day's counter outlives the rows it accounts for, whenever the purge reaches them.
    await purgeOldRequestLogDays(env.DB, PURGE_BATCH, now);
    expect(await days()).toContain(kstDate(refusedAt));

    expect(await purgeOldRequestLogs(env.DB, PURGE_BATCH, now)).toBeGreaterThanOrEqual(2);
    expect(await findRequestLog(env.DB, ws.workspaceId, old)).toBeUndefined();
    expect(await findRequestLog(env.DB, ws.workspaceId, refused)).toBeUndefined();
    expect(await findRequestLog(env.DB, ws.workspaceId, young)).toBeDefined();
    await purgeOldRequestLogDays(env.DB, PURGE_BATCH, now);
    expect(await days()).not.toContain(kstDate(refusedAt));
  });

  it("refuses bad filters with the spec's 400 JSON error and a Korean message", async () => {
    const ws = await createWorkspace();
    const cases: [string, string, string][] = [
      ["?status=abc", "INVALID_PARAM_FORMAT", "query.status"],
      ["?status=4xx,6xx", "INVALID_PARAM_FORMAT", "query.status"],
      ["?errorCode=not_a_code", "INVALID_PARAM_FORMAT", "query.errorCode"],
      ["?keyId=abc", "INVALID_PARAM_FORMAT", "query.keyId"],
      ["?method=BREW", "INVALID_PARAM_FORMAT", "query.method"],
      ["?path=api/v1", "INVALID_PARAM_FORMAT", "query.path"],
      [`?path=/${"a".repeat(600)}`, "INVALID_PARAM_FORMAT", "query.path"],
      ["?from=yesterday", "INVALID_PARAM_FORMAT", "query.from"],
      ["?limit=0", "INVALID_PARAM_FORMAT", "query.limit"],
      ["?from=2026-11-02T00:00:00Z&to=2026-11-01T00:00:00Z", "DATE_RANGE_INVALID", "query.from"],
    ];
    for (const [query, code, field] of cases) {
      const res = await list(ws, query);
      expect(res.status, query).toBe(400);
      expect(res.headers.get("Content-Type")).toContain("application/json");
      expect(res.body.code, query).toBe(code);
      expect(res.body.message).toMatch(/[가-힣]/);
      // A term of a list is named by its place in it (query.status.1).
      expect(res.body.fieldErrors.map((f: Json) => f.field.replace(/\.\d+$/, "")), query).toContain(field);
      expect(res.body.requestId).toBe(res.headers.get("X-Request-Id"));
    }
    const longId = await detail(ws, `req_${"0".repeat(100)}`);
    expect(longId.status).toBe(400);
    expect(longId.body.code).toBe("INVALID_PARAM_FORMAT");
  });
});
