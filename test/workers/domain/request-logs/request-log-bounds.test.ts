import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { issueApiKey } from "../../../../worker/domain/api-keys/store";
import { watchRequestLogSize, REQUEST_LOG_ALERT_BYTES } from "../../../../worker/domain/request-logs/capacity";
import { cardMasked, REDACTED, redact, TRUNCATED } from "../../../../worker/domain/request-logs/redaction";
import { findRequestLog, insertRequestLogs, omittedOn } from "../../../../worker/domain/request-logs/store";
import { PLAN_REQUEST_LOG } from "../../../../worker/domain/workspaces/plans";
import { kstDate } from "../../../../contracts/korean-time";
import { sha256Hex } from "../../../../worker/platform/lib/crypto";
import { call, callJson, createWorkspace, TX_JOB } from "../../../support/workers/helpers";
import { logEntry, logged, logId, sent } from "../../../support/workers/request-log-helpers";
import { rowsWrittenMeter } from "../../../support/workers/rows-written";

type Json = Record<string, any>;

const rowsOf = async (workspaceId: string) => (await env.DB.prepare("SELECT * FROM request_logs WHERE workspace_id = ?").bind(workspaceId).all<Json>()).results;
const rowBytes = (row: Json) => new TextEncoder().encode(JSON.stringify(row)).length;

/** Every row of every table of D1, as text: what a card number must not be found in. */
async function allOfD1(): Promise<string> {
  const tables = (await env.DB.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%'").all<{ name: string }>()).results;
  const dumps = await Promise.all(tables.map(async ({ name }) => JSON.stringify((await env.DB.prepare(`SELECT * FROM "${name}"`).all()).results)));
  return dumps.join("\n");
}

/** Every object of R2, its key and its bytes as text. */
async function allOfR2(): Promise<string> {
  const parts: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await env.RESULTS.list({ cursor });
    for (const object of page.objects) parts.push(object.key, (await (await env.RESULTS.get(object.key))?.text()) ?? "");
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
  return parts.join("\n");
}

describe("card numbers in the request log", () => {
  it("masks a card number by its checksum wherever it stands, keeping its last four digits and other numbers", () => {
    expect(cardMasked("카드 4242 4242 4242 4242 결제")).toBe("카드 [CARD ****4242] 결제");
    expect(cardMasked("4242-4242-4242-4242")).toBe("[CARD ****4242]");
    expect(cardMasked("x5555555555554444y")).toBe("x[CARD ****4444]y");
    // Not a card: the checksum fails, too short, or part of a longer run.
    expect(cardMasked("4242424242424241")).toBe("4242424242424241");
    expect(cardMasked("1208800767 2026-01-01")).toBe("1208800767 2026-01-01");
    expect(cardMasked("42424242424242420000000")).toBe("42424242424242420000000");
    expect(redact({ memo: "4242424242424242", amount: 4242424242424242, n: 12345, big: 12345678901234567890, ["4242424242424242"]: 1 })).toEqual({
      memo: "[CARD ****4242]",
      amount: "[CARD ****4242]",
      n: 12345,
      big: REDACTED,
      "[CARD ****4242]": 1,
    });
  });

  it("keeps no more of a registered card than its last four digits anywhere in D1, R2 or the log, nor its expiry or birth date", async () => {
    // A test workspace is a confirmed one (sandbox_only false), as card registration needs.
    const ws = await createWorkspace();
    const card = { number: "4242-4242-4242-4242", expiryYear: "31", expiryMonth: "07", birthOrBusinessRegistrationNumber: "930417", passwordTwoDigits: "58" };
    const headers = { "CF-Connecting-IP": "198.18.58.1" };
    const registered = await sent("/api/v1/billing/payment-methods", { method: "POST", key: ws.apiKey, headers, json: { card } });
    expect(registered.status).toBe(201);
    const refused = await sent("/api/v1/billing/payment-methods", { method: "POST", key: ws.apiKey, headers, json: { card: { ...card, expiryMonth: "13" } } });
    expect(refused.status).toBe(400);
    // The same number where a person might paste it: a query, and a body of a route whose body the log keeps.
    const queried = await sent("/api/v1/data-jobs?note=4242%204242%204242%204242", { key: ws.apiKey });
    const pasted = await sent("/api/v1/data-jobs", { method: "POST", key: ws.apiKey, json: { ...TX_JOB, params: { ...TX_JOB.params, memo: "카드 4242424242424242" } } });
    await logged(ws.workspaceId, registered.requestId, refused.requestId, queried.requestId, pasted.requestId);

    const log = JSON.stringify(await rowsOf(ws.workspaceId));
    expect(log).toContain("[CARD ****4242]");
    for (const text of [log, await allOfD1(), await allOfR2()]) {
      expect(text).not.toMatch(/4242[ -]?4242[ -]?4242/);
    }
    for (const part of ["930417", '"31"', '"07"', '"58"']) expect(log).not.toContain(part);
    expect((await findRequestLog(env.DB, ws.workspaceId, registered.requestId))!.body).toBeNull();
  });

  it("keeps a body only for the routes that allow it, as their document says", async () => {
    const ws = await createWorkspace();
    const job = await sent("/api/v1/data-jobs", { method: "POST", key: ws.apiKey, json: TX_JOB });
    const credential = await sent("/api/v1/credentials", {
      method: "POST",
      key: ws.apiKey,
      json: { providerCode: "sandbox.bank", authMethod: "PROVIDER_LOGIN", fields: { loginId: "user_good", password: "pass_good" }, label: "본점" },
    });
    await logged(ws.workspaceId, job.requestId, credential.requestId);
    expect((await findRequestLog(env.DB, ws.workspaceId, job.requestId))!.body).toMatchObject({ providerCode: "sandbox.bank", schema: TX_JOB.schema });
    expect((await findRequestLog(env.DB, ws.workspaceId, credential.requestId))!.body).toBeNull();

    const doc = (await callJson<Json>("/api/v1/openapi.json")).body;
    const logsBody = (path: string, method: string) => doc.paths[path][method]["x-request-log-body"] === true;
    expect(logsBody("/api/v1/data-jobs", "post")).toBe(true);
    expect(logsBody("/api/v1/webhook-endpoints", "post")).toBe(true);
    for (const [path, method] of [["/api/v1/credentials", "post"], ["/api/v1/billing/payment-methods", "post"], ["/api/v1/delivery-routes", "post"]]) {
      expect(logsBody(path!, method!), `${method} ${path}`).toBe(false);
    }
  });

  it("clears what rows written before kept of bodies, queries and envelopes, keeping the rows", async () => {
    const ws = await createWorkspace();
    const [card, query] = [logId("card"), logId("query")];
    const refused = { method: "POST", status: 400 };
    await insertRequestLogs(env.DB, [
      logEntry(ws, { ...refused, id: card, path: "/api/v1/billing/payment-methods", body: { card: { number: "4242424242424242", expiryMonth: "12" } } }),
      logEntry(ws, { ...refused, id: query, path: "/api/v1/data-jobs", errorCode: "INVALID_PARAM_FORMAT", query: { note: "4242 4242 4242 4242" }, errorBody: { code: "X", message: "4242-4242-4242-4242" } }),
    ]);
    const migration = (env as Env & { TEST_MIGRATIONS: { name: string; queries: string[] }[] }).TEST_MIGRATIONS.find((m) => m.name.includes("request_log_bounds"))!;
    for (const statement of migration.queries.filter((q) => q.includes("UPDATE"))) await env.DB.prepare(statement).run();
    expect(await findRequestLog(env.DB, ws.workspaceId, card)).toMatchObject({ body: null, path: "/api/v1/billing/payment-methods", status: 400 });
    expect(await findRequestLog(env.DB, ws.workspaceId, query)).toMatchObject({ query: null, errorBody: null, errorCode: "INVALID_PARAM_FORMAT" });
  });
});

describe("the request log's bounds", () => {
  it("caps every row at a few KB: a 12 KB query and a 100 KB junk field are cut and marked so", async () => {
    const ws = await createWorkspace();
    const query = Array.from({ length: 24 }, (_, i) => `f${i}=${"q".repeat(500)}`).join("&");
    const long = await sent(`/api/v1/data-jobs?${query}`, { key: ws.apiKey });
    const junk = await sent("/api/v1/data-jobs", { method: "POST", key: ws.apiKey, json: { ...TX_JOB, params: { ...TX_JOB.params, junk: Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, "j".repeat(2_000)])) } } });
    await logged(ws.workspaceId, long.requestId, junk.requestId);
    for (const requestId of [long.requestId, junk.requestId]) {
      const row = (await rowsOf(ws.workspaceId)).find((r) => r.id === requestId)!;
      expect(rowBytes(row), requestId).toBeLessThan(5 * 1024);
    }
    expect((await findRequestLog(env.DB, ws.workspaceId, long.requestId))!.query).toMatchObject({ [TRUNCATED]: true, bytes: expect.any(Number) });
    const body = (await findRequestLog(env.DB, ws.workspaceId, junk.requestId))!.body as Json;
    expect(body).toMatchObject({ [TRUNCATED]: true, preview: expect.stringContaining("sandbox.bank") });
    // What it measured is the redacted body: fifty strings of 500 characters, each cut there by redaction.
    expect(body.bytes).toBeGreaterThan(25_000);
  });

  it("logs a request whose body is padded past a queue message's size, truncated", async () => {
    const ws = await createWorkspace();
    // 2,500 strings of 80 characters: each within redaction's bounds, 200 KB together.
    const pad = Array.from({ length: 50 }, () => Array.from({ length: 50 }, () => "p".repeat(80)));
    const padded = await sent("/api/v1/api-keys", { method: "POST", key: ws.apiKey, json: { name: "minted", pad } });
    expect(padded.status).toBe(201);
    await logged(ws.workspaceId, padded.requestId);
    expect((await findRequestLog(env.DB, ws.workspaceId, padded.requestId))!.body).toMatchObject({ [TRUNCATED]: true });
  });

  it("tries a refused send again, so a queue's brief refusal loses no request", async () => {
    const ws = await createWorkspace();
    const queue = (env as Env).REQUEST_LOGS;
    let refusals = 1;
    const flaky = { send: (body: never, options: QueueSendOptions) => (refusals-- > 0 ? Promise.reject(new Error("Queue send failed")) : queue.send(body, options)) } as unknown as Env["REQUEST_LOGS"];
    const response = await call("/api/v1/providers", { key: ws.apiKey, env: { ...(env as Env), REQUEST_LOGS: flaky } });
    await response.arrayBuffer();
    await logged(ws.workspaceId, response.headers.get("X-Request-Id")!);
    expect(refusals).toBe(-1);
  });

  it("counts a key's 429s in a row a minute instead of a row each, keeping neither their queries nor their envelopes", async () => {
    const ws = await createWorkspace();
    const answers = await Promise.all(Array.from({ length: 130 }, (_, i) => sent(`/api/v1/schemas?n=${i}&pad=${"z".repeat(2_000)}`, { key: ws.apiKey })));
    const refused = answers.filter((a) => a.status === 429);
    expect(refused.length).toBe(30);
    await vi.waitFor(
      async () => {
        const rows = (await rowsOf(ws.workspaceId)).filter((r) => r.status === 429);
        expect(rows.reduce((n, r) => n + r.repeat_count, 0)).toBe(30);
      },
      { timeout: 30_000, interval: 200 },
    );
    const rows = (await rowsOf(ws.workspaceId)).filter((r) => r.status === 429);
    // One a minute: two where the burst crossed a minute's end.
    expect(rows.length).toBeLessThanOrEqual(2);
    for (const row of rows) expect(row).toMatchObject({ error_code: "API_RATE_LIMITED", query: null, error_body: null });
    // The list says how many a row stands for (read with another key: this one is still over its limit).
    const reader = await issueApiKey(env.DB, { workspaceId: ws.workspaceId, name: "reader", canManageKeys: true });
    const page = await callJson<Json>("/api/v1/request-logs?status=429", { key: reader.secret });
    expect(page.body.items.reduce((n: number, item: Json) => n + item.repeatCount, 0)).toBe(30);
  });

  it("folds a key's polls of a job answered the same within a minute into one row counting them, and a changed answer starts another", async () => {
    const ws = await createWorkspace();
    // No credential: the job is born Failed, so its answer stays the same.
    const job = (await callJson<Json>("/api/v1/data-jobs", { method: "POST", key: ws.apiKey, json: TX_JOB })).body;
    const path = `/api/v1/data-jobs/${job.id}`;
    const poll = async (times: number, bindings: Env = env) => {
      const ids = [];
      for (let i = 0; i < times; i++) ids.push((await sent(path, { key: ws.apiKey, env: bindings })).requestId);
      return ids;
    };
    const before = await poll(6);
    // Another suggested poll interval: the same job, answered otherwise.
    const changed = { ...env, SUGGESTED_POLL_INTERVAL_MS: "1234" } as Env;
    const after = await poll(4, changed);
    expect((await callJson<Json>(path, { key: ws.apiKey, env: changed })).body.suggestedPollIntervalMs).toBe(1234);
    await logged(ws.workspaceId, before[0]!);
    await vi.waitFor(
      async () => {
        const rows = (await rowsOf(ws.workspaceId)).filter((r) => r.path === path);
        expect(rows.reduce((n, r) => n + r.repeat_count, 0)).toBe(11);
      },
      { timeout: 30_000, interval: 200 },
    );
    const rows = (await rowsOf(ws.workspaceId)).filter((r) => r.path === path).sort((a, b) => a.created_at - b.created_at);
    // One row an answer and minute: the two answers' rows, and one more a minute's end crossed.
    expect(rows.length).toBeGreaterThanOrEqual(2);
    expect(rows.length).toBeLessThanOrEqual(3);
    expect(rows[0]).toMatchObject({ id: before[0], status: 200, method: "GET" });
    expect(rows.some((r) => r.id === after[0])).toBe(true);
    // The create, answered once, is a row of its own.
    expect((await rowsOf(ws.workspaceId)).filter((r) => r.method === "POST").map((r) => r.repeat_count)).toEqual([1]);
  });

  it("hashes a polled job's answer for its fold once however often the same answer is polled", async () => {
    const ws = await createWorkspace();
    const job = (await callJson<Json>("/api/v1/data-jobs", { method: "POST", key: ws.apiKey, json: TX_JOB })).body;
    const path = `/api/v1/data-jobs/${job.id}`;
    // The fold's text names the path; the key's own digest (authenticate.ts) does not.
    const digest = vi.spyOn(crypto.subtle, "digest");
    try {
      for (let i = 0; i < 5; i++) await sent(path, { key: ws.apiKey });
      // Every poll's entry made and still folded: the rows count all five.
      await vi.waitFor(async () => expect((await rowsOf(ws.workspaceId)).filter((r) => r.path === path).reduce((n, r) => n + r.repeat_count, 0)).toBe(5), { timeout: 30_000, interval: 200 });
      expect(digest.mock.calls.filter(([, data]) => new TextDecoder().decode(data as Uint8Array).includes(path))).toHaveLength(1);
    } finally {
      digest.mockRestore();
    }
  });

  it("folds a polled job's answer as it was sent, without reading a copy of it", async () => {
    const ws = await createWorkspace();
    const job = (await callJson<Json>("/api/v1/data-jobs", { method: "POST", key: ws.apiKey, json: TX_JOB })).body;
    const path = `/api/v1/data-jobs/${job.id}`;
    const clone = vi.spyOn(Response.prototype, "clone");
    try {
      for (let i = 0; i < 3; i++) await sent(path, { key: ws.apiKey });
      await vi.waitFor(async () => expect((await rowsOf(ws.workspaceId)).filter((r) => r.path === path).reduce((n, r) => n + r.repeat_count, 0)).toBe(3), { timeout: 30_000, interval: 200 });
      expect(clone).not.toHaveBeenCalled();
    } finally {
      clone.mockRestore();
    }
  });

  it("keeps a polled job's fold, count and path as it came, for a percent-encoded path too", async () => {
    const ws = await createWorkspace();
    const job = (await callJson<Json>("/api/v1/data-jobs", { method: "POST", key: ws.apiKey, json: TX_JOB })).body;
    const plain = `/api/v1/data-jobs/${job.id}`;
    // The same job with its id's first character percent-encoded: answered alike, logged and folded under the path sent.
    const encoded = `/api/v1/data-jobs/%${job.id.charCodeAt(0).toString(16).toUpperCase()}${job.id.slice(1)}`;
    const answers = new Map<string, string>();
    for (const path of [plain, plain, encoded, encoded, encoded]) {
      const response = await call(path, { key: ws.apiKey });
      expect(response.status).toBe(200);
      answers.set(path, await response.text());
    }
    expect(answers.get(encoded)).toBe(answers.get(plain));
    const rowsAt = async (path: string) => (await rowsOf(ws.workspaceId)).filter((r) => r.path === path);
    await vi.waitFor(
      async () => expect(await Promise.all([plain, encoded].map(async (p) => (await rowsAt(p)).reduce((n, r) => n + r.repeat_count, 0)))).toEqual([2, 3]),
      { timeout: 30_000, interval: 200 },
    );
    for (const path of [plain, encoded]) {
      for (const row of await rowsAt(path)) {
        // The fold's text as entry.ts has always made it: workspace, method, path as sent, query, status and the answer's text.
        const digest = await sha256Hex(JSON.stringify([ws.workspaceId, "GET", path, {}, 200, answers.get(path)]));
        expect(row.collapse_key).toBe(`${ws.apiKeyId}:${row.created_at - (row.created_at % 60_000)}:${digest}`);
      }
    }
  });

  it("writes a request answered once as 2 D1 rows, a poll's own row as 3 and a folded poll as 1", async () => {
    const ws = await createWorkspace();
    const meter = rowsWrittenMeter(env.DB);
    const now = Date.now();
    const row = (id: string, createdAt: number, collapseKey: string | null = null) => logEntry(ws, { id, createdAt, collapseKey, path: "/api/v1/data-jobs/x" });
    const writes = (rows: ReturnType<typeof row>[]) => meter.during(() => insertRequestLogs(meter.db, rows));
    // The day's counter is written once a day a workspace (the consumer's upsert, or the store's for a day it did not count).
    await insertRequestLogs(env.DB, [row(logId(), now)]);
    const fold = `${ws.apiKeyId}:${now}:${crypto.randomUUID()}`;
    expect([await writes([row(logId(), now)]), await writes([row(logId(), now, fold)]), await writes([row(logId(), now, fold)])]).toEqual([2, 3, 1]);
  });

  it("stores a workspace's requests until its day's budget is spent, then counts the rest as omitted", async () => {
    const ws = await createWorkspace();
    const day = kstDate(Date.now());
    const budget = PLAN_REQUEST_LOG.FREE.bytesPerDay;
    await env.DB.prepare("INSERT INTO request_log_days (workspace_id, day, bytes, rows, omitted) VALUES (?, ?, ?, 1, 0)").bind(ws.workspaceId, day, budget - 100).run();
    const over = await sent("/api/v1/providers", { key: ws.apiKey });
    await vi.waitFor(async () => expect(await omittedOn(env.DB, ws.workspaceId, day)).toBe(1), { timeout: 30_000, interval: 200 });
    expect(await findRequestLog(env.DB, ws.workspaceId, over.requestId)).toBeUndefined();

    // Another workspace's budget is its own.
    const other = await createWorkspace();
    const fits = await sent("/api/v1/providers", { key: other.apiKey });
    await logged(other.workspaceId, fits.requestId);
    expect(await omittedOn(env.DB, other.workspaceId, day)).toBe(0);
  });

  it("holds a workspace to its plan's live keys, and lets it make one again after revoking one", async () => {
    const ws = await createWorkspace();
    const cap = PLAN_REQUEST_LOG.FREE.liveApiKeys;
    const made: Json[] = [];
    for (let i = 1; i < cap; i++) made.push((await callJson<Json>("/api/v1/api-keys", { method: "POST", key: ws.apiKey, json: { name: `k${i}` } })).body);
    expect(made.every((key) => typeof key.id === "string")).toBe(true);
    const refused = await callJson<Json>("/api/v1/api-keys", { method: "POST", key: ws.apiKey, json: { name: "one too many" } });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: "ADMIN_ACTION_FORBIDDEN", message: expect.stringContaining(`${cap}개`) });
    const live = await env.DB.prepare("SELECT count(*) AS n FROM api_keys WHERE workspace_id = ? AND revoked_at IS NULL").bind(ws.workspaceId).first<{ n: number }>();
    expect(live!.n).toBe(cap);
    expect((await call(`/api/v1/api-keys/${made[0]!.id}`, { method: "DELETE", key: ws.apiKey })).status).toBeLessThan(300);
    expect((await callJson<Json>("/api/v1/api-keys", { method: "POST", key: ws.apiKey, json: { name: "replacement" } })).status).toBe(201);
  });

  it("alerts operators while the log's retention holds more than its share of the database", async () => {
    const day = kstDate(Date.now());
    const workspaceId = crypto.randomUUID();
    await env.DB.prepare("INSERT INTO request_log_days (workspace_id, day, bytes, rows, omitted) VALUES (?, ?, ?, 1, 0)").bind(workspaceId, day, REQUEST_LOG_ALERT_BYTES).run();
    try {
      for (let minute = 0; minute < 3; minute++) expect(await watchRequestLogSize(env as Env)).toBeGreaterThanOrEqual(REQUEST_LOG_ALERT_BYTES);
      const alert = await env.DB.prepare("SELECT code, provider_code, example FROM operator_alerts WHERE provider_code = 'request-logs' AND resolved_at IS NULL").first<Json>();
      expect(alert).toMatchObject({ code: "INTERNAL_ERROR", example: expect.stringContaining("request_logs") });
    } finally {
      await env.DB.prepare("DELETE FROM request_log_days WHERE workspace_id = ?").bind(workspaceId).run();
    }
  });

  it("keeps a path as it came, so control and bidi characters cannot make it read as another", async () => {
    const ws = await createWorkspace();
    const spoofed = await sent("/api/v1/data-jobs/abc%0A%E2%80%AEfed", { key: ws.apiKey });
    await logged(ws.workspaceId, spoofed.requestId);
    const row = (await findRequestLog(env.DB, ws.workspaceId, spoofed.requestId))!;
    expect(row.path).toBe("/api/v1/data-jobs/abc%0A%E2%80%AEfed");
    expect(row.path).not.toMatch(/[\n\u202E]/);
  });
});
