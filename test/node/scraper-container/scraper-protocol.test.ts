// start-order: 6 (why: vitest.node.config.ts)
import { randomBytes } from "node:crypto";
import { Agent, createServer, request, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scraperAuthorization } from "../../../contracts/scraper-protocol";
import { bankGroundTruth } from "../../../sandbox/sandbox-bank/ground-truth";
import { type SandboxServer, startSandbox } from "../../../sandbox/server";
import { type ScraperServer, startScraper } from "../../../scraper-container/server";

const SECRET = randomBytes(32).toString("base64url");
let sandbox: SandboxServer;
let scraper: ScraperServer;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  scraper = await startScraper({ port: 0, maxSessions: 2, sharedSecret: SECRET, sandboxBaseUrl: sandbox.url });
});
afterAll(async () => {
  await scraper?.close();
  await sandbox?.close();
});

async function call(method: string, path: string, body?: unknown, authorization: string | null = scraperAuthorization(SECRET)) {
  const headers: Record<string, string> = { "Content-Type": "application/json", ...(authorization === null ? {} : { Authorization: authorization }) };
  const response = await fetch(`${scraper.url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

const open = (password = "pass_good") => call("POST", "/sessions", { providerCode: "sandbox.bank", credential: { authMethod: "PROVIDER_LOGIN", loginId: "user_good", password } });
const stats = async () => (await call("GET", "/stats")).body;

/** A plain HTTP server that records what reaches it. */
async function recordingServer(): Promise<{ url: string; hits: string[]; server: Server }> {
  const hits: string[] = [];
  const server = createServer((req, res) => {
    hits.push(req.url ?? "");
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, hits, server };
}

describe("scraper HTTP protocol", () => {
  it("logs in once and reuses the session for targets and several units", async () => {
    const before = (await stats()).logins;
    const session = await open();
    expect(session.status).toBe(201);
    const { sessionId } = session.body;
    const targets = await call("POST", `/sessions/${sessionId}/targets`, { schema: "bank.transactions.cb.v1" });
    expect(targets.body.targets).toHaveLength(3);
    const target = targets.body.targets[0];
    const months = [
      { start: "2026-01-01", end: "2026-01-31" },
      { start: "2026-02-01", end: "2026-02-28" },
    ];
    const results = await Promise.all(
      months.map((segment, unitIndex) => call("POST", `/sessions/${sessionId}/collect`, { unit: { jobId: "j", unitIndex, schema: "bank.transactions.cb.v1", target, segment, params: {} } })),
    );
    const truth = bankGroundTruth("user_good", { start: "2026-01-01", end: "2026-02-28" }).transactions.filter((t) => t.accountNumber === target.id);
    expect(results.flatMap((r) => r.body.records).map((r: { identifier: string }) => r.identifier)).toEqual(truth.map((t) => t.identifier));
    expect(await stats()).toMatchObject({ logins: before + 1, activeSessions: 1 });
    expect((await call("DELETE", `/sessions/${sessionId}`)).status).toBe(204);
    expect((await stats()).activeSessions).toBe(0);
  });

  it("answers an unknown session with 404 SESSION_EXPIRED", async () => {
    const res = await call("POST", "/sessions/nope/collect", { unit: {} });
    expect(res.status).toBe(404);
    expect(res.body.failure.code).toBe("SESSION_EXPIRED");
  });

  it("answers an institution failure with 422 and the catalog code and message", async () => {
    const res = await open("error_LOGIN_LOCKED");
    expect(res.status).toBe(422);
    expect(res.body.failure).toMatchObject({ code: "LOGIN_LOCKED" });
    expect(res.body.failure.message).toMatch(/[가-힣]/);
  });

  it("answers bad requests with 400 and refuses sessions over the limit with 429", async () => {
    expect((await call("POST", "/sessions", { providerCode: "nope" })).status).toBe(400);
    const bad = await fetch(`${scraper.url}/sessions`, { method: "POST", headers: { Authorization: scraperAuthorization(SECRET) }, body: "{" });
    expect(bad.status).toBe(400);
    await bad.arrayBuffer();
    const a = await open();
    const b = await open();
    const c = await open();
    expect([a.status, b.status, c.status]).toEqual([201, 201, 429]);
    expect(c.body.failure.code).toBe("ENGINE_CONCURRENCY_LIMIT");
    for (const s of [a, b]) await call("DELETE", `/sessions/${s.body.sessionId}`);
  });

  it("logs in to the site in its own provider table, whatever address the request names", async () => {
    const decoy = await recordingServer();
    try {
      const res = await call("POST", "/sessions", { providerCode: "sandbox.bank", baseUrl: `${decoy.url}/bank/`, credential: { authMethod: "PROVIDER_LOGIN", loginId: "user_good", password: "pass_good" } });
      expect(res.status).toBe(201);
      expect(decoy.hits).toEqual([]);
      await call("DELETE", `/sessions/${res.body.sessionId}`);
    } finally {
      decoy.server.close();
    }
  });
});

describe("scraper session cap", () => {
  it("holds MAX_SESSIONS under a burst of concurrent logins and refuses the rest with 429 ENGINE_CONCURRENCY_LIMIT", async () => {
    const burst = await Promise.all(Array.from({ length: 5 }, () => open()));
    const opened = burst.filter((r) => r.status === 201);
    const refused = burst.filter((r) => r.status === 429);
    expect(opened).toHaveLength(2);
    expect(refused).toHaveLength(3);
    for (const r of refused) expect(r.body.failure.code).toBe("ENGINE_CONCURRENCY_LIMIT");
    expect(await stats()).toMatchObject({ activeSessions: 2, loginsInFlight: 0, browserContexts: 2 });
    for (const r of opened) await call("DELETE", `/sessions/${r.body.sessionId}`);
  });

  it("holds 10 sessions when MAX_SESSIONS is unset, what bench:sessions measured a standard-3 instance to carry", async () => {
    const uncapped = await startScraper({ port: 0, sharedSecret: SECRET, sandboxBaseUrl: sandbox.url });
    try {
      const login = () => fetch(`${uncapped.url}/sessions`, { method: "POST", headers: { Authorization: scraperAuthorization(SECRET), "Content-Type": "application/json" }, body: JSON.stringify({ providerCode: "sandbox.bank", credential: { authMethod: "PROVIDER_LOGIN", loginId: "user_good", password: "pass_good" } }) });
      const burst = await Promise.all(Array.from({ length: 11 }, async () => {
        const response = await login();
        return { status: response.status, body: (await response.json()) as { failure?: { code: string } } };
      }));
      expect(burst.map((r) => r.status).sort()).toEqual([...Array(10).fill(201), 429]);
      expect(burst.find((r) => r.status === 429)!.body.failure!.code).toBe("ENGINE_CONCURRENCY_LIMIT");
    } finally {
      await uncapped.close();
    }
  });

  it("frees the slot of a login that fails", async () => {
    const failed = await Promise.all([open("error_LOGIN_LOCKED"), open("error_LOGIN_LOCKED")]);
    expect(failed.map((r) => r.status)).toEqual([422, 422]);
    expect(await stats()).toMatchObject({ activeSessions: 0, loginsInFlight: 0, browserContexts: 0 });
    const opened = await Promise.all([open(), open()]);
    expect(opened.map((r) => r.status)).toEqual([201, 201]);
    for (const r of opened) await call("DELETE", `/sessions/${r.body.sessionId}`);
  });
});

describe("scraper access", () => {
  it("answers a caller without the shared secret 401 with the failure envelope, and logs nobody in", async () => {
    const before = (await stats()).logins;
    const wrongSameLength = randomBytes(32).toString("base64url");
    for (const authorization of [null, scraperAuthorization(wrongSameLength), scraperAuthorization("short"), SECRET, `Basic ${SECRET}`]) {
      const res = await call("POST", "/sessions", { providerCode: "sandbox.bank", credential: { authMethod: "PROVIDER_LOGIN", loginId: "user_good", password: "pass_good" } }, authorization);
      expect(res.status).toBe(401);
      expect(res.body.failure.code).toBe("INTERNAL_ERROR");
      expect(res.body.failure.message).toMatch(/[가-힣]/);
    }
    expect((await call("GET", "/stats", undefined, null)).status).toBe(401);
    expect((await call("DELETE", "/sessions/any", undefined, null)).status).toBe(401);
    expect((await stats()).logins).toBe(before);
  });

  it("answers health checks without the secret", async () => {
    expect(await call("GET", "/healthz", undefined, null)).toEqual({ status: 200, body: { ok: true } });
  });

  it("closes the connection after every answer, so no caller reuses one the server is about to drop", async () => {
    const agent = new Agent({ keepAlive: true });
    const closed = await new Promise<boolean>((resolve, reject) => {
      const req = request(`${scraper.url}/stats`, { agent, headers: { Authorization: scraperAuthorization(SECRET) } }, (res) => {
        expect(res.headers.connection).toBe("close");
        res.resume();
        res.socket.once("close", () => resolve(true));
      });
      req.once("error", reject);
      req.end();
    });
    agent.destroy();
    expect(closed).toBe(true);
  });

  it("refuses to start without a shared secret of at least 32 characters", async () => {
    await expect(startScraper({ port: 0, sharedSecret: "", sandboxBaseUrl: sandbox.url })).rejects.toThrow(/SCRAPER_SHARED_SECRET/);
    await expect(startScraper({ port: 0, sharedSecret: "x".repeat(31), sandboxBaseUrl: sandbox.url })).rejects.toThrow(/SCRAPER_SHARED_SECRET/);
    await expect(startScraper({ port: 0, sharedSecret: SECRET, sandboxBaseUrl: "" })).rejects.toThrow(/SANDBOX_BASE_URL/);
  });
});

describe("scraper request bodies", () => {
  it("refuses a body declared over 1 MiB with 413 and the failure envelope", async () => {
    const body = JSON.stringify({ providerCode: "sandbox.bank", padding: "a".repeat(2 * 1024 * 1024) });
    const res = await call("POST", "/sessions", JSON.parse(body));
    expect(res.status).toBe(413);
    expect(res.body.failure.code).toBe("INTERNAL_ERROR");
  });

  it("stops reading an undeclared body once it passes 1 MiB, answers 413 and hangs up", async () => {
    // The body never ends: only a server that stops reading at the limit can answer at all. The client stops writing
    // at twice the limit (never ending the body), so it is not writing when the server hangs up: a write racing the
    // hang-up failed with EPIPE before the answer was read, and the answer was lost (c41).
    let hungUp!: Promise<void>;
    let written = 0;
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(`${scraper.url}/sessions`, { method: "POST", headers: { Authorization: scraperAuthorization(SECRET), "Content-Type": "application/json" } }, (res) => {
        let text = "";
        res.on("data", (chunk) => (text += chunk));
        res.on("end", () => resolve({ status: res.statusCode!, body: text }));
      });
      req.on("socket", (socket) => (hungUp = new Promise((closed) => socket.once("close", () => closed()))));
      req.on("error", (err) => (err.message.includes("EPIPE") || err.message.includes("ECONNRESET") ? undefined : reject(err)));
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      const pump = () => {
        while (!req.destroyed && written < 2 * 1024 * 1024) {
          written += chunk.length;
          if (!req.write(chunk)) return void req.once("drain", pump);
        }
      };
      req.write('{"padding":"');
      pump();
    });
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body).failure.code).toBe("INTERNAL_ERROR");
    // At once, not after the keep-alive timeout (5 s) with the unread rest still waiting.
    const answered = performance.now();
    await hungUp;
    expect(performance.now() - answered).toBeLessThan(2000);
  });
});
