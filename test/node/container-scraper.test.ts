import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SandboxServer, startSandbox } from "../../sandbox/server";
import { type ScraperServer, startScraper } from "../../scraper-container/server";
import { ContainerScraper, type ScraperCallBounds } from "../../worker/pipeline/container-scraper";

const SECRET = randomBytes(32).toString("base64url");
const BOUND_MS = 300;
const SHORT: ScraperCallBounds = { openSessionMs: BOUND_MS, targetsMs: BOUND_MS, collectMs: BOUND_MS, closeMs: BOUND_MS };
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
    const sessionId = await client.openSession("sandbox.bank", LOGIN);
    expect((await client.collect(sessionId, UNIT)).length).toBeGreaterThan(0);
    await client.closeSession(sessionId);
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
        // Best effort, yet bounded: the sweep closes sessions one after another.
        expect(await elapsed(() => client.closeSession("s"))).toBeLessThan(BOUND_MS + 2000);
      } finally {
        hung.server.closeAllConnections();
        hung.server.close();
      }
    });
  }
});
