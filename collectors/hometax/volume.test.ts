import { certificateOf, replicaConnection, replicaStarter } from "../../test/support/hometax-replica";
import { describe, expect, it } from "vitest";
import type { LoginCredential, TaskUnit } from "../adapter";
import { SANDBOX_BUSINESS_NUMBER } from "../../sandbox/certificates/issue";
import { hometaxDocuments } from "../../sandbox/hometax/ground-truth";
import { HOMETAX_MEMBERS } from "../../sandbox/hometax/members";
import { REPLICA_KEYS } from "../../sandbox/hometax/site";
import { hometaxStandIns } from "../../sandbox/hometax/stand-ins";
import type { SandboxServer } from "../../sandbox/server";
import { institutionFor } from "../registry";
import { hometax } from "./index";
import { institutionHttp } from "../kit/protocol/institution-http";
import type { HometaxOptions } from "./options";
import type { HometaxDeps } from "./pacing";

const replicaWith = replicaStarter();

const SCHEMA = "taxportal.cash-receipts.purchase.v1";
const PERIOD = { start: "2024-01-01", end: "2024-03-31" };
const ctx = { baseUrl: "https://hometax.go.kr/", businessNumber: SANDBOX_BUSINESS_NUMBER };
const unit: TaskUnit = { jobId: "job", unitIndex: 0, schema: SCHEMA, target: null, segment: PERIOD, params: {} };

/**
 * The real adapter against a replica over HTTP, on a clock that moves only when the adapter sleeps: every wait it
 * asks for is recorded and none is waited. The suffix is off, as it carries the wall clock's second.
 */
function connect(sandbox: SandboxServer, options: Partial<HometaxOptions> = {}) {
  const sleeps: number[] = [];
  let clock = Date.now();
  const deps: HometaxDeps = {
    now: () => clock,
    sleep: async (ms) => {
      sleeps.push(ms);
      clock += ms;
    },
    random: () => 0.5,
  };
  const sent: string[] = [];
  const { adapter, http } = replicaConnection(sandbox, { integritySuffix: false, ...options }, deps, (input, init) => {
    sent.push(`${init?.method ?? "GET"} ${String(input).replace(sandbox.url, "")}`);
    return fetch(input, init);
  });
  return { adapter, http, sent, sleeps };
}

const certificate = () => certificateOf(SANDBOX_BUSINESS_NUMBER);

const idLogin = (): LoginCredential => {
  const login = HOMETAX_MEMBERS[0]!.idLogin!;
  return { authMethod: "PROVIDER_LOGIN", loginId: login.loginId, password: login.password, secondFactor: login.residentPrefix };
};

async function collect(sandbox: SandboxServer, options: Partial<HometaxOptions> = {}, credential?: LoginCredential) {
  const run = connect(sandbox, options);
  const outcome = await run.adapter
    .login(run.http, credential ?? (await certificate()), ctx)
    .then((session) => run.adapter.collect(session, unit, ctx))
    .then(
      (records) => ({ records, code: null as string | null, retryAfterSeconds: undefined as number | undefined }),
      (err: { code?: string; retryAfterSeconds?: number }) => ({ records: [], code: err.code ?? String(err), retryAfterSeconds: err.retryAfterSeconds }),
    );
  return { ...run, ...outcome };
}

const listCalls = (sent: string[]) => sent.filter((s) => s.includes("/tecr.hometax.go.kr/wqAction.do"));
const truth = () => hometaxDocuments(SANDBOX_BUSINESS_NUMBER, SCHEMA, PERIOD);

describe("Hometax at volume: pacing, throttles, NetFunnel, hosts and the stop page, against the replica", () => {
  it("spaces every request of a login by the default interval plus jitter (S1's 1 s), asking the clock, over several pages", async () => {
    const run = await collect(await replicaWith());
    expect(run.code).toBeNull();
    expect(run.records).toHaveLength(truth().length);
    expect(listCalls(run.sent).length).toBeGreaterThan(1);
    // 1000 ms + 0.5 of the 500 ms jitter before every request but the first.
    expect(run.sleeps).toEqual(Array(run.sent.length - 1).fill(1250));
    const fast = await collect(await replicaWith(), { requestIntervalMs: 200, requestJitterMs: 0 });
    expect(fast.sleeps).toEqual(Array(fast.sent.length - 1).fill(200));
  });

  it("holds the one-second pace against stand-ins too, on the wall clock, unless the deployment names another for them", async () => {
    const sandbox = await replicaWith();
    const standIns = hometaxStandIns(sandbox.url);
    const sites = { sandboxBaseUrl: sandbox.url, institutionBaseUrls: { hometax: standIns } };
    const paced = institutionFor("hometax", sites)!;
    expect(paced.adapter).toBe(hometax);
    if (paced.kind !== "protocol") throw new Error("hometax is a protocol institution");
    // A pace named for stand-ins (HOMETAX_PACE_MS) never reaches the real portal.
    expect(institutionFor("hometax", { sandboxBaseUrl: sandbox.url, hometaxPaceMs: 0 })?.adapter).toBe(hometax);
    expect(institutionFor("hometax", { ...sites, hometaxPaceMs: 0 })?.adapter).not.toBe(hometax);
    // The registry's adapter as the scraper runs it against the replica: a login and its first requests, timed.
    const sentAt: number[] = [];
    const http = institutionHttp({ hosts: paced.adapter.hosts, standIns, transport: (input, init) => (sentAt.push(performance.now()), fetch(input, init)) });
    await paced.adapter.login(http, await certificateOf(SANDBOX_BUSINESS_NUMBER), ctx);
    expect(sentAt.length).toBeGreaterThan(2);
    const gaps = sentAt.slice(1).map((at, i) => at - sentAt[i]!);
    for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(990);
  });

  it("waits and asks the same list page again after an overload answer, and ends RATE_LIMITED when the retries run out", async () => {
    const [twice, thrice] = await Promise.all([replicaWith({ overloadFirst: 2 }), replicaWith({ overloadFirst: 3, overloadAs: "http429" })]);
    const recovered = await collect(twice);
    expect(recovered.code).toBeNull();
    expect(recovered.records).toHaveLength(truth().length);
    const calls = listCalls(recovered.sent);
    expect(calls.slice(0, 3).every((c) => c === calls[0])).toBe(true);
    expect(recovered.sleeps.filter((ms) => ms === 61_000)).toHaveLength(2);

    const spent = await collect(thrice);
    expect([spent.code, spent.retryAfterSeconds]).toEqual(["RATE_LIMITED", 61]);
    expect(listCalls(spent.sent)).toHaveLength(3);
    expect(spent.sleeps.filter((ms) => ms === 61_000)).toHaveLength(2);

    const unavailable = await collect(await replicaWith({ overloadFirst: 1, overloadAs: "http503" }), { throttleWaitSeconds: 30, throttleRetries: 1 });
    expect(unavailable.code).toBeNull();
    expect(unavailable.sleeps.filter((ms) => ms === 30_000)).toHaveLength(1);
  });

  it("never asks again after a block (Request Blocked, EIE2###): RATE_LIMITED at once with the block pause", async () => {
    for (const blocked of ["request-blocked", "block-code"] as const) {
      const run = await collect(await replicaWith({ blocked }));
      expect([run.code, run.retryAfterSeconds], blocked).toEqual(["RATE_LIMITED", 3600]);
      expect(listCalls(run.sent), blocked).toHaveLength(1);
      expect(run.sleeps.some((ms) => ms >= 30_000), blocked).toBe(false);
    }
  });

  it("takes a NetFunnel ticket before the ID login as S2 does, and goes on without one when the queue does not queue", async () => {
    const queued = await collect(await replicaWith({ requireNetFunnel: true }), {}, idLogin());
    expect(queued.code).toBeNull();
    const ticket = queued.sent.filter((s) => s.includes("/apct.hometax.go.kr/ts.wseq"));
    expect(ticket).toHaveLength(1);
    expect(ticket[0]).toContain("opcode=5101&nfid=0&prefix=NetFunnel.gRtype=5101;&sid=service_1&aid=public_m_id_login&js=yes&");
    const r07 = queued.sent.findIndex((s) => s.includes("ATXPPABA001R07"));
    const firstLogin = queued.sent.findIndex((s) => s.includes("pubcLogin.do"));
    expect(r07 < queued.sent.indexOf(ticket[0]!) && queued.sent.indexOf(ticket[0]!) < firstLogin).toBe(true);

    const legacySid = await collect(await replicaWith({ requireNetFunnel: true }), { netFunnelSid: "service_2" }, idLogin());
    expect(legacySid.code).toBeNull();
    expect(legacySid.sent.find((s) => s.includes("ts.wseq"))).toContain("sid=service_2");

    expect((await collect(await replicaWith({ netFunnel: "not-queued" }), {}, idLogin())).code).toBeNull();
    // Not queued means no cookie: a portal that wanted one refuses the form.
    expect((await collect(await replicaWith({ netFunnel: "not-queued", requireNetFunnel: true }), {}, idLogin())).code).not.toBeNull();
    // A certificate login takes none (no source takes one there).
    expect((await collect(await replicaWith())).sent.some((s) => s.includes("ts.wseq"))).toBe(false);
  });

  it("logs in on www as current clients do, follows a redirect between Hometax hosts and refuses one leaving them", async () => {
    const plain = await collect(await replicaWith());
    for (const call of ["GET /hometax/www.hometax.go.kr/", "ATXPPZXA001R01", "/hometax/www.hometax.go.kr/pubcLogin.do", "/hometax/www.hometax.go.kr/permission.do?screenId=index_pp"]) {
      expect(plain.sent.some((s) => s.includes(call) && s.includes("www.hometax.go.kr")), call).toBe(true);
    }
    // With the suffix, so the key script is read from the apex; unpaced, so the suffix's second stays near the replica's.
    const redirected = await collect(await replicaWith({ apexToWww: true }), { integritySuffix: true, requestIntervalMs: 0, requestJitterMs: 0 });
    expect(redirected.code).toBeNull();
    expect(redirected.records).toHaveLength(truth().length);
    expect(redirected.sent).toContain("GET /hometax/hometax.go.kr/js/comm/ui/common_te-min.js");
    expect(redirected.sent).toContain("GET /hometax/www.hometax.go.kr/js/comm/ui/common_te-min.js");

    const outside = await collect(await replicaWith({ redirectOutside: true }));
    expect(outside.code).toBe("PROVIDER_ERROR");
    expect(outside.sent.some((s) => s.includes("example.com"))).toBe(false);
  });

  it("reads the stop page the portal sends as PROVIDER_TIME_WINDOW, and the notice's words inside a script as nothing", async () => {
    const stopped = await collect(await replicaWith({ stopPage: true }));
    expect(stopped.code).toBe("PROVIDER_TIME_WINDOW");
    expect(stopped.sent).toEqual(["GET /hometax/www.hometax.go.kr/", "GET /hometax/hometax.go.kr/html/comm/error/blockPage.html?msg=stop"]);

    const script = `var testVal=[${REPLICA_KEYS.map((k) => `"${k}"`).join(",")}];function stop(){alert("요청하신 서비스는 현재 서비스 중지 시간 입니다.");location.href="/blockPage.html?msg=stop";}`;
    // Unpaced, so the clock (and the suffix's second) stays near the replica's.
    const wordy = await collect(await replicaWith({ script, requireSuffix: true }), { integritySuffix: true, requestIntervalMs: 0, requestJitterMs: 0 });
    expect(wordy.code).toBeNull();
    expect(wordy.sent.some((s) => s.includes("common_te-min.js"))).toBe(true);
    expect(wordy.records).toHaveLength(truth().length);
  });
});
