import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { pathToFileURL } from "node:url";
import { bankSite } from "./sandbox-bank/site";
import { cardSite } from "./sandbox-card/site";
import { clockFrom, type SandboxClock, SandboxTime } from "./clock";
import { type HometaxReplicaOptions, hometaxReplica } from "./hometax/site";
import { phoneControl, phonePage } from "./hometax/phone-page";
import { type NtsBusinessStatusReplicaOptions, ntsBusinessStatusReplica } from "./nts-business-status/site";
import { type OpenBankingReplicaOptions, openBankingReplica, type TokenSwitch } from "./openbanking/site";
import { portOneReplica } from "./portone/gateway";
import { taxPortalSite } from "./sandbox-taxportal/site";
import { readJson, sendJson } from "./http-kit";

export interface SandboxServer {
  url: string;
  close(): Promise<void>;
}

export interface SandboxOptions {
  port: number;
  /** How long the bank's "hang" behaviour keeps a request open. */
  hangMs?: number;
  /**
   * How long every page and call of the sites takes to answer. Real institutions take hundreds of milliseconds
   * to seconds a page; with this, a benchmark on a small machine measures waiting, as production does, not its CPU.
   */
  pageLatencyMs?: number;
  /** The institutions' clock for time-of-day behaviour (sandbox/clock.ts); unset, they keep no hours. */
  clock?: SandboxClock;
  /** The Hometax replica's failure switches (sandbox/hometax/site.ts); unset, it answers as the portal does on a good day. */
  hometax?: HometaxReplicaOptions;
  /** The Open Banking replica's clock, token lifetime and limits (sandbox/openbanking/site.ts). */
  openbanking?: OpenBankingReplicaOptions;
  /** The NTS business-status replica's outage switch (sandbox/nts-business-status/site.ts). */
  ntsBusinessStatus?: NtsBusinessStatusReplicaOptions;
}

/**
 * A sandbox clock, for partners' tests: the institutions' hours at /sandbox/clock, which the service's maintenance
 * calendar reads, and Open Banking's token time at /sandbox/openbanking/clock. GET answers its time and offset from
 * the real one (null while unset: no hours kept, tokens on real time), PUT `{"at": "<date-time>"}` sets it running
 * from that moment, DELETE unsets it.
 */
async function answerClock(time: SandboxTime, req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (req.method === "PUT") {
    const at = String((await readJson(req)).at ?? "");
    if (Number.isNaN(Date.parse(at))) return sendJson(res, 400, { message: "at은 날짜와 시각(ISO 8601)이어야 합니다." });
    time.set(clockFrom(at));
  } else if (req.method === "DELETE") time.set(undefined);
  const now = time.now();
  sendJson(res, 200, { now: now === undefined ? null : new Date(now).toISOString(), offsetMs: now === undefined ? null : now - Date.now() });
}

/** `POST /sandbox/openbanking/tokens {"token", "switch"}`: one token's switch (sandbox/openbanking/site.ts TokenSwitch); 404 for a token the replica never issued. */
async function answerTokenSwitch(switchToken: (token: string, which: TokenSwitch) => boolean, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const body = await readJson(req);
  const which = body.switch;
  if (typeof body.token !== "string" || (which !== "end-access" && which !== "refuse-early-refresh")) return sendJson(res, 400, { message: "token과 switch(end-access, refuse-early-refresh)가 필요합니다." });
  if (!switchToken(body.token, which)) return sendJson(res, 404, { message: "그런 토큰은 발급된 적이 없습니다." });
  sendJson(res, 200, { switched: which });
}

/** The sandbox institutions on one port: the bank under /bank/, the tax portal under /taxportal/, the card issuer under /card/, the Hometax replica under /hometax/<real host>/, the Open Banking replica under /openbanking/<real host>/, the NTS business-status replica under /nts-business-status/<real host>/. */
export async function startSandbox(options: SandboxOptions): Promise<SandboxServer> {
  const latencyMs = options.pageLatencyMs ?? 0;
  const time = new SandboxTime(options.clock);
  // Open Banking's tokens age by a clock of their own: moving it ends consents without moving the banks' hours.
  const openBankingTime = new SandboxTime();
  const openBanking = openBankingReplica({ now: () => openBankingTime.now() ?? Date.now(), ...options.openbanking });
  const hometax = hometaxReplica(options.hometax);
  const sites: Record<string, (req: IncomingMessage, res: ServerResponse, url: URL) => Promise<void>> = {
    bank: bankSite({ hangMs: options.hangMs ?? 20_000, clock: time.now }),
    taxportal: taxPortalSite({ clock: time.now }),
    card: cardSite({ clock: time.now }),
    hometax,
    // The sandbox phone that approves the replica's 간편인증 requests: a page for demos, control calls for tests.
    "hometax-phone": phonePage(hometax.phone),
    _sandbox: phoneControl(hometax.phone, hometax.logOut),
    openbanking: openBanking,
    "nts-business-status": ntsBusinessStatusReplica(options.ntsBusinessStatus),
    // The payment gateway the service bills through, as a replica (sandbox/portone/gateway.ts).
    portone: portOneReplica({ prefix: "/portone" }).answer,
  };
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://sandbox.local");
    if (url.pathname === "/healthz") {
      res.writeHead(200, { "Content-Type": "application/json" });
      res.end('{"ok":true}');
      return;
    }
    if (url.pathname === "/sandbox/clock") return void answerClock(time, req, res);
    if (url.pathname === "/sandbox/openbanking/clock") return void answerClock(openBankingTime, req, res);
    if (url.pathname === "/sandbox/openbanking/tokens" && req.method === "POST") return void answerTokenSwitch(openBanking.switchToken, req, res);
    const site = sites[url.pathname.split("/")[1] ?? ""];
    if (site) {
      const answered = latencyMs > 0 ? new Promise((r) => setTimeout(r, latencyMs)).then(() => site(req, res, url)) : site(req, res, url);
      answered.catch((err) => {
        console.error(err);
        if (!res.headersSent) res.writeHead(500);
        res.end();
      });
      return;
    }
    res.writeHead(404, { "Content-Type": "text/plain; charset=utf-8" });
    res.end("샌드박스 기관: /bank/, /taxportal/, /card/, /hometax/, /openbanking/, 결제대행 /portone/");
  });
  await new Promise<void>((resolve) => server.listen(options.port, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const sandbox = await startSandbox({
    port: Number(process.env.SANDBOX_PORT ?? 8790),
    hangMs: Number(process.env.SANDBOX_HANG_MS ?? 20_000),
    pageLatencyMs: Number(process.env.SANDBOX_PAGE_LATENCY_MS ?? 0),
    clock: process.env.SANDBOX_CLOCK ? clockFrom(process.env.SANDBOX_CLOCK) : undefined,
    openbanking: {
      ...(process.env.SANDBOX_OPENBANKING_TOKEN_SECONDS ? { accessTtlSeconds: Number(process.env.SANDBOX_OPENBANKING_TOKEN_SECONDS) } : {}),
      // The Callback URLs registered for the replica's 이용기관, comma-separated (the stack's own callback).
      callbackUrls: (process.env.SANDBOX_OPENBANKING_CALLBACK_URLS ?? "").split(",").filter(Boolean),
    },
  });
  console.log(`sandbox institutions on ${sandbox.url}`);
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => void sandbox.close().then(() => process.exit(0)));
}
