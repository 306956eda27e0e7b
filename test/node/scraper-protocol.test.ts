import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bankGroundTruth } from "../../sandbox/bank/ground-truth";
import { type SandboxServer, startSandbox } from "../../sandbox/server";
import { type ScraperServer, startScraper } from "../../scraper-container/server";

let sandbox: SandboxServer;
let scraper: ScraperServer;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  scraper = await startScraper({ port: 0, maxSessions: 2 });
});
afterAll(async () => {
  await scraper?.close();
  await sandbox?.close();
});

async function call(method: string, path: string, body?: unknown) {
  const response = await fetch(`${scraper.url}${path}`, { method, headers: { "Content-Type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

const open = (password = "pass_good") =>
  call("POST", "/sessions", { providerCode: "sandbox.bank", baseUrl: `${sandbox.url}/bank/`, credential: { authMethod: "PROVIDER_LOGIN", loginId: "user_good", password } });

describe("scraper HTTP protocol", () => {
  it("logs in once and reuses the session for targets and several units", async () => {
    const before = (await call("GET", "/stats")).body.logins;
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
    expect((await call("GET", "/stats")).body).toMatchObject({ logins: before + 1, activeSessions: 1 });
    expect((await call("DELETE", `/sessions/${sessionId}`)).status).toBe(204);
    expect((await call("GET", "/stats")).body.activeSessions).toBe(0);
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
    const bad = await fetch(`${scraper.url}/sessions`, { method: "POST", body: "{" });
    expect(bad.status).toBe(400);
    await bad.arrayBuffer();
    const a = await open();
    const b = await open();
    const c = await open();
    expect([a.status, b.status, c.status]).toEqual([201, 201, 429]);
    expect(c.body.failure.code).toBe("ENGINE_CONCURRENCY_LIMIT");
    for (const s of [a, b]) await call("DELETE", `/sessions/${s.body.sessionId}`);
  });
});
