// start-order: 5 (why: vitest.node.config.ts)
import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SandboxServer, startSandbox } from "../../../sandbox/server";
import { ID_MEMBERS, type IdMember } from "../../../sandbox/sandbox-taxportal/members";
import { type ScraperServer, startScraper } from "../../../scraper-container/server";
import { ContainerScraper, DEFAULT_CALL_BOUNDS, type ScraperCallBounds } from "../../../worker/domain/scraper/container-client";
import { processInstances } from "../../../worker/domain/scraper/instances";
import { SessionGone } from "../../../worker/domain/scraper/port";
import { scraperAuthorization } from "../../../contracts/scraper-protocol";

const SECRET = randomBytes(32).toString("base64url");
const BOUND_MS = 300;
const SHORT: ScraperCallBounds = { openSessionMs: BOUND_MS, targetsMs: BOUND_MS, collectMs: BOUND_MS, closeMs: BOUND_MS, loginWaitMs: BOUND_MS };
const LOGIN = { authMethod: "PROVIDER_LOGIN", loginId: "user_good", password: "pass_good" } as const;
const UNIT = { jobId: "j", unitIndex: 0, schema: "bank.accounts.cb.v1", target: null, segment: null, params: {} };

let sandbox: SandboxServer;
let scraper: ScraperServer;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  scraper = await startScraper({ port: 0, sharedSecret: SECRET, sandboxBaseUrl: sandbox.url });
});
afterAll(async () => {
  await scraper?.close();
  await sandbox?.close();
});

/** A scraper stand-in that takes requests and never finishes answering them. */
async function hangingServer(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<{ url: string; server: Server }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, server };
}

async function elapsed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

describe("worker's scraper client", () => {
  it("logs in and collects on the real scraper with the shared secret", async () => {
    const client = new ContainerScraper(scraper.url, SECRET);
    const { sessionId } = await client.openSession("sandbox.bank", LOGIN);
    expect((await client.collect(sessionId, UNIT)).length).toBeGreaterThan(0);
    await client.closeSession(sessionId);
  });

  it("hands the workspace's business to the login, so a tax portal account of another business is BUSINESS_NUMBER_MISMATCH", async () => {
    const client = new ContainerScraper(scraper.url, SECRET);
    const [taxUser, otherUser] = ID_MEMBERS as [IdMember, IdMember];
    const login = { authMethod: "PROVIDER_LOGIN", loginId: taxUser.loginId, password: taxUser.password, secondFactor: taxUser.residentPrefix } as const;
    await expect(client.openSession("sandbox.taxportal", login, otherUser.businessNumber)).rejects.toMatchObject({ code: "BUSINESS_NUMBER_MISMATCH" });
    await client.closeSession((await client.openSession("sandbox.taxportal", login, taxUser.businessNumber)).sessionId);
  });

  it("is refused by a scraper holding another secret, as INTERNAL_ERROR", async () => {
    const client = new ContainerScraper(scraper.url, randomBytes(32).toString("base64url"));
    await expect(client.openSession("sandbox.bank", LOGIN)).rejects.toMatchObject({ code: "INTERNAL_ERROR" });
  });

  for (const [stall, handler] of [
    ["sends nothing", () => undefined],
    ["sends headers and then nothing", (_req: IncomingMessage, res: ServerResponse) => res.writeHead(200, { "Content-Type": "application/json" }).write("{")],
  ] as const) {
    it(`gives up on a scraper that ${stall} within the call's bound, as ENGINE_CRASHED`, async () => {
      const hung = await hangingServer(handler);
      try {
        const client = new ContainerScraper(hung.url, SECRET, SHORT);
        for (const call of [() => client.openSession("sandbox.bank", LOGIN), () => client.targets("s", "bank.transactions.cb.v1"), () => client.collect("s", UNIT)]) {
          const ms = await elapsed(() => expect(call()).rejects.toMatchObject({ code: "ENGINE_CRASHED" }));
          expect(ms).toBeGreaterThanOrEqual(BOUND_MS - 50);
          expect(ms).toBeLessThan(BOUND_MS + 2000);
        }
        // A paced provider's unit (catalog/providers.ts collectBoundMs) waits its own longer bound, never a shorter one.
        expect(await elapsed(() => expect(client.collect("s", UNIT, 3 * BOUND_MS)).rejects.toMatchObject({ code: "ENGINE_CRASHED" }))).toBeGreaterThanOrEqual(3 * BOUND_MS - 50);
        expect(await elapsed(() => expect(client.collect("s", UNIT, BOUND_MS / 3)).rejects.toMatchObject({ code: "ENGINE_CRASHED" }))).toBeGreaterThanOrEqual(BOUND_MS - 50);
        // Best effort, yet bounded: the sweep closes sessions one after another.
        expect(await elapsed(() => client.closeSession("s"))).toBeLessThan(BOUND_MS + 2000);
      } finally {
        hung.server.closeAllConnections();
        hung.server.close();
      }
    });
  }
});

/** A scraper's own count of logins, from its /stats. */
async function loginsOn(server: ScraperServer): Promise<number> {
  const response = await fetch(`${server.url}/stats`, { headers: { Authorization: scraperAuthorization(SECRET) } });
  return ((await response.json()) as { logins: number }).logins;
}

describe("worker's scraper client over several scraper processes", () => {
  let second: ScraperServer;
  beforeAll(async () => {
    // At its cap with one session, so a second login must go elsewhere.
    second = await startScraper({ port: 0, sharedSecret: SECRET, sandboxBaseUrl: sandbox.url, maxSessions: 1 });
  });
  afterAll(async () => {
    await second?.close();
  });

  it("keeps every call of a session on the process that logged in", async () => {
    const pickSecond = () => 0.99;
    const client = new ContainerScraper(processInstances([scraper.url, second.url]), SECRET, undefined, pickSecond);
    const [firstBefore, secondBefore] = [await loginsOn(scraper), await loginsOn(second)];
    const { sessionId } = await client.openSession("sandbox.bank", LOGIN);
    expect([await loginsOn(scraper), await loginsOn(second)]).toEqual([firstBefore, secondBefore + 1]);
    // The first process never saw this session: only routing by the id reaches the browser that holds it.
    expect((await client.collect(sessionId, UNIT)).length).toBeGreaterThan(0);
    expect((await client.targets(sessionId, "bank.transactions.cb.v1")).length).toBeGreaterThan(0);
    await client.closeSession(sessionId);
    await expect(client.targets(sessionId, "bank.accounts.cb.v1")).rejects.toBeInstanceOf(SessionGone);
  });

  it("passes a login on to the next process when the one it picked is at its session cap", async () => {
    const client = new ContainerScraper(processInstances([scraper.url, second.url]), SECRET, undefined, () => 0.99);
    const { sessionId: held } = await client.openSession("sandbox.bank", LOGIN);
    const firstBefore = await loginsOn(scraper);
    const { sessionId: passedOn } = await client.openSession("sandbox.bank", LOGIN);
    expect(await loginsOn(scraper)).toBe(firstBefore + 1);
    expect((await client.collect(passedOn, UNIT)).length).toBeGreaterThan(0);
    await Promise.all([client.closeSession(held), client.closeSession(passedOn)]);
  });

  it("waits for a session slot while every process is at its cap, and logs in once one frees", async () => {
    const capped = await startScraper({ port: 0, sharedSecret: SECRET, sandboxBaseUrl: sandbox.url, maxSessions: 1 });
    try {
      const client = new ContainerScraper(processInstances([capped.url, second.url]), SECRET, { ...DEFAULT_CALL_BOUNDS, loginWaitMs: 20_000 }, () => 0);
      const sessions = [(await client.openSession("sandbox.bank", LOGIN)).sessionId, (await client.openSession("sandbox.bank", LOGIN)).sessionId];
      const waiting = client.openSession("sandbox.bank", LOGIN);
      await new Promise((r) => setTimeout(r, 1500));
      await client.closeSession(sessions[1]!);
      const { sessionId: third } = await waiting;
      expect((await client.collect(third, UNIT)).length).toBeGreaterThan(0);
      await Promise.all([client.closeSession(sessions[0]!), client.closeSession(third)]);
    } finally {
      await capped.close();
    }
  });

  it("answers ENGINE_CONCURRENCY_LIMIT once every process stayed at its cap for the whole wait", async () => {
    const capped = await startScraper({ port: 0, sharedSecret: SECRET, sandboxBaseUrl: sandbox.url, maxSessions: 1 });
    try {
      const client = new ContainerScraper(processInstances([capped.url, second.url]), SECRET, { ...DEFAULT_CALL_BOUNDS, loginWaitMs: 1000 }, () => 0);
      const sessions = [(await client.openSession("sandbox.bank", LOGIN)).sessionId, (await client.openSession("sandbox.bank", LOGIN)).sessionId];
      const ms = await elapsed(() => expect(client.openSession("sandbox.bank", LOGIN)).rejects.toMatchObject({ code: "ENGINE_CONCURRENCY_LIMIT" }));
      expect(ms).toBeGreaterThanOrEqual(1000);
      await Promise.all(sessions.map((id) => client.closeSession(id)));
    } finally {
      await capped.close();
    }
  });

  it("treats a session pinned to an instance no longer configured as gone, so the executor logs in again", async () => {
    const client = new ContainerScraper(processInstances([scraper.url]), SECRET);
    await expect(client.collect("3~0d6f5a8e-0000-4000-8000-000000000000", UNIT)).rejects.toBeInstanceOf(SessionGone);
  });
});
