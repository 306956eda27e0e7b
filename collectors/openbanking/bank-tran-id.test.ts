import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { institutionHttp } from "../kit/protocol/institution-http";
import { Pacer } from "../kit/protocol/pacer";
import { REPLICA_CLIENT, userByLogin } from "../../sandbox/openbanking/ground-truth";
import { openBankingStandIns } from "../../sandbox/openbanking/stand-ins";
import { walkReplicaConsent } from "../../sandbox/openbanking/walk-consent";
import { type SandboxServer, startSandbox } from "../../sandbox/server";
import { scraperOptionsFromEnv, startScraper } from "../../scraper-container/server";
import { bankTranIds, leasedProcessTag, PROCESS_TAGS } from "./bank-tran-id";
import { OPENBANKING_HOSTS } from "./hosts";
import { ACCOUNTS_SCHEMA } from "./index";
import { authorizationUrl, exchangeCode, readCallback } from "./oauth";

const REDIRECT = "https://partner.example/openbanking/callback";
let replica: SandboxServer;

beforeAll(async () => {
  replica = await startSandbox({ port: 0, openbanking: { callbackUrls: [REDIRECT] } });
});
afterAll(async () => {
  await replica.close();
});

describe("bank_tran_id", () => {
  it("carries the tag a scraper process was started with (SCRAPER_PROCESS_TAG) in every id it sends", async () => {
    // What reaches KFTC, recorded on the way to the replica.
    const seen: string[] = [];
    const recorder = createServer((req, res) => {
      const tranId = new URL(req.url ?? "/", "http://recorder").searchParams.get("bank_tran_id");
      if (tranId) seen.push(tranId);
      const body: Buffer[] = [];
      req.on("data", (chunk: Buffer) => body.push(chunk));
      req.on("end", () => {
        void fetch(`${replica.url}${req.url}`, { method: req.method, headers: req.headers as Record<string, string>, body: req.method === "POST" ? Buffer.concat(body) : undefined })
          .then(async (answer) => {
            res.writeHead(answer.status, { "Content-Type": answer.headers.get("content-type") ?? "application/json" });
            res.end(await answer.text());
          });
      });
    });
    await new Promise<void>((resolve) => recorder.listen(0, "127.0.0.1", resolve));
    const recorderUrl = `http://127.0.0.1:${(recorder.address() as AddressInfo).port}`;
    const secret = "s".repeat(43);
    const tag = leasedProcessTag("runner", 7);
    const scraper = await startScraper({
      ...scraperOptionsFromEnv({ SCRAPER_SHARED_SECRET: secret, SANDBOX_BASE_URL: replica.url, SCRAPER_PROCESS_TAG: String(tag), INSTITUTION_BASE_URLS: JSON.stringify({ openbanking: openBankingStandIns(recorderUrl) }) }),
      port: 0,
    });
    try {
      const authorize = authorizationUrl({ environment: "testbed", clientId: REPLICA_CLIENT.clientId, redirectUri: REDIRECT, state: "s".repeat(32) });
      const callback = await walkReplicaConsent(`${replica.url}/openbanking/${new URL(authorize).hostname}${new URL(authorize).pathname}${new URL(authorize).search}`, "obuser1");
      const http = institutionHttp({ hosts: OPENBANKING_HOSTS, standIns: openBankingStandIns(replica.url) });
      const grant = await exchangeCode(http, "testbed", REPLICA_CLIENT, readCallback(callback.searchParams, "s".repeat(32)).code, REDIRECT);
      const post = async (path: string, body: unknown) => {
        const answer = await fetch(`${scraper.url}${path}`, { method: "POST", headers: { Authorization: `Bearer ${secret}`, "Content-Type": "application/json" }, body: JSON.stringify(body) });
        expect(answer.status, path).toBeLessThan(300);
        return answer.json() as Promise<Record<string, any>>;
      };
      const { sessionId } = await post("/sessions", { providerCode: "openbanking", credential: grant.credential });
      const { targets } = await post(`/sessions/${sessionId}/targets`, { schema: ACCOUNTS_SCHEMA });
      for (const target of targets) await post(`/sessions/${sessionId}/collect`, { unit: { jobId: "job", unitIndex: 0, schema: ACCOUNTS_SCHEMA, target, segment: null, params: {} } });
    } finally {
      await scraper.close();
      await new Promise((resolve) => recorder.close(resolve));
    }
    const tagText = bankTranIds(tag).next(REPLICA_CLIENT.clientUseCode).slice(15, 18);
    expect(seen).toHaveLength(userByLogin("obuser1")!.accounts.length);
    for (const id of seen) expect(id.slice(15, 18), id).toBe(tagText);
  });

  it("never repeats across 1,000 concurrent generations in several processes, and keeps KFTC's form", async () => {
    const processes = Array.from({ length: 8 }, (_, i) => bankTranIds(i * 997));
    const ids = await Promise.all(Array.from({ length: 1000 }, (_, i) => Promise.resolve().then(() => processes[i % processes.length]!.next(REPLICA_CLIENT.clientUseCode))));
    const single = await Promise.all(Array.from({ length: 1000 }, () => Promise.resolve().then(() => processes[0]!.next(REPLICA_CLIENT.clientUseCode))));
    for (const id of [...ids, ...single]) expect(id).toMatch(/^M202600001U[A-Z0-9]{9}$/);
    expect(new Set([...ids, ...single]).size).toBe(2000);
  });

  it("stays unique when one second's counter runs out and when the clock steps back", () => {
    let now = Date.parse("2026-03-01T05:00:00Z");
    const source = bankTranIds(PROCESS_TAGS - 1, () => now);
    const ids = Array.from({ length: 5000 }, (_, i) => {
      if (i === 2500) now -= 3000;
      return source.next("M202600001");
    });
    expect(new Set(ids).size).toBe(5000);
    expect(() => bankTranIds(PROCESS_TAGS)).toThrow();
    expect(() => source.next("short")).toThrow();
  });

  it("paces one session's calls", async () => {
    const pacer = new Pacer(30);
    const started = Date.now();
    await Promise.all(Array.from({ length: 5 }, () => pacer.wait()));
    expect(Date.now() - started).toBeGreaterThanOrEqual(115);
  });
});
