import { beforeAll, describe, expect, it } from "vitest";
import type { SimpleAuthLogin, TaskUnit } from "../../contracts/task-unit";
import { NO_WAIT, replicaConnection, replicaStarter } from "../../test/support/hometax-replica";
import { SANDBOX_BUSINESS_NUMBER } from "../../sandbox/certificates/issue";
import { hometaxDocuments } from "../../sandbox/hometax/ground-truth";
import { SIMPLE_AUTH_PEOPLE, UNKNOWN_PERSON } from "../../sandbox/hometax/simple-auth-people";
import type { HometaxReplicaOptions } from "../../sandbox/hometax/site";
import type { SandboxServer } from "../../sandbox/server";
import type { HometaxOptions } from "./options";
import type { HometaxDeps } from "./pacing";
import { SIMPLE_AUTH_NEXT_STEPS } from "./simple-auth-failures";
import { checkHometaxSimpleAuth, SIMPLE_AUTH_CHECK_SCHEMAS } from "../../scripts/live-check/hometax";

const replicaWith = replicaStarter();
let replica: SandboxServer;
beforeAll(async () => {
  replica = await replicaWith();
});

const owner = SIMPLE_AUTH_PEOPLE.find((p) => p.businessNumber === SANDBOX_BUSINESS_NUMBER)!;
const kakao: SimpleAuthLogin = { authMethod: "SIMPLE_AUTH", name: owner.name, phone: owner.phone, birthDate: owner.birthDate, provider: "kakao" };
const ctx = { baseUrl: "https://hometax.go.kr/", businessNumber: SANDBOX_BUSINESS_NUMBER };
const MAY = { start: "2024-05-01", end: "2024-05-31" };
const invoices: TaskUnit = { jobId: "job", unitIndex: 0, schema: "taxportal.tax-invoices.sales.v1", target: null, segment: MAY, params: {} };

/** The adapter against a replica, the URLs it asked kept. */
function connect(sandbox: SandboxServer, options: Partial<HometaxOptions> = {}, deps: HometaxDeps = NO_WAIT) {
  const sent: string[] = [];
  const connection = replicaConnection(sandbox, options, deps, (input, init) => {
    sent.push(String(input));
    return fetch(input, init);
  });
  return { ...connection, sent };
}

/** The sandbox phone's control calls (sandbox/hometax/phone-page.ts), as a test taps the phone. */
async function phone(sandbox: SandboxServer, action: "approve" | "deny", match: Record<string, string>): Promise<number> {
  const answer = await fetch(`${sandbox.url}/_sandbox/hometax/phone/${action}`, { method: "POST", body: JSON.stringify(match) });
  expect(answer.status).toBe(200);
  return ((await answer.json()) as { answered: number }).answered;
}

async function failureOf(promise: Promise<unknown>): Promise<string> {
  return promise.then(
    () => "no failure",
    (err: { code?: string }) => err.code ?? String(err),
  );
}

const started = (options: HometaxReplicaOptions) => replicaWith(options);

describe("Hometax 간편인증 (OACX) against the replica's gateway and sandbox phone", () => {
  it("asks the app, waits while pending, and after the phone approves logs in and lists one month of tax invoices equal to the ground truth", async () => {
    const { adapter, http, sent } = connect(replica);
    const pending = await adapter.requestApproval!(http, kakao, ctx);
    expect(pending.approval).toMatchObject({ method: "SIMPLE_AUTH", provider: "kakao" });
    expect(Date.parse(pending.approval.until) - Date.parse(pending.approval.since)).toBe(300_000);
    const gateway = sent.map((u) => new URL(u).pathname).filter((p) => p.includes("/oacx/"));
    expect(gateway).toEqual(["/hometax/hometax.go.kr/oacx/api/v1.0/trans", "/hometax/hometax.go.kr/oacx/api/v1.0/provider/list", "/hometax/hometax.go.kr/oacx/api/v1.0/authen/request"]);
    // The queue before authen/request (K1): simple_cert_kakao, not queued on the replica by default.
    expect(sent.some((u) => u.includes("aid=simple_cert_kakao"))).toBe(true);
    expect(await adapter.awaitApproval!(http, pending, 0, ctx)).toBeNull();
    expect(await phone(replica, "approve", { name: owner.name })).toBe(1);
    const session = await adapter.awaitApproval!(http, pending, 20_000, ctx);
    expect(session).not.toBeNull();
    expect(session!.portal).toMatchObject({ userCertClCd: "19", lgnCertCd: "01", txprDscmNo: SANDBOX_BUSINESS_NUMBER });
    const records = await adapter.collect(session!, invoices, ctx);
    const truth = hometaxDocuments(SANDBOX_BUSINESS_NUMBER, "taxportal.tax-invoices.sales.v1", MAY);
    expect(truth.length).toBeGreaterThan(0);
    const byId = (rows: Record<string, unknown>[]) => [...rows].sort((a, b) => String(a.ntsTransactionId).localeCompare(String(b.ntsTransactionId)));
    expect(byId(records)).toEqual(byId(truth));
  });

  it("login does both, waiting until the phone answers (approved at the third poll), on naver and on PASS with its carrier", async () => {
    const sandbox = await started({ phone: { approveAfterPolls: 3 } });
    for (const credential of [{ ...kakao, provider: "naver" }, { ...kakao, provider: "pass", carrier: "SKT" }] as SimpleAuthLogin[]) {
      const { adapter, http, sent } = connect(sandbox);
      const session = await adapter.login(http, credential, ctx);
      expect(session.portal.userCertClCd, credential.provider).toBe("19");
      expect(sent.filter((u) => u.includes("authen/result")), credential.provider).toHaveLength(3);
    }
  });

  it("is LOGIN_FAILED when the person denies on the phone, with the denial's codes an option", async () => {
    const { adapter, http } = connect(replica);
    const pending = await adapter.requestApproval!(http, kakao, ctx);
    await phone(replica, "deny", { phone: owner.phone });
    expect(await failureOf(adapter.awaitApproval!(http, pending, 20_000, ctx))).toBe("LOGIN_FAILED");
    // A gateway that words a denial otherwise: unknown by default, a denial once the option names it.
    const other = await started({ phone: { denial: { resultCode: "409", oacxCode: "OACX_USER_CANCEL" } } });
    for (const [options, code] of [
      [{}, "UNKNOWN"],
      [{ simpleAuthDenied: { resultCodes: [], oacxCodes: ["OACX_USER_CANCEL"] } }, "LOGIN_FAILED"],
    ] as const) {
      const c = connect(other, options);
      const asked = await c.adapter.requestApproval!(c.http, kakao, ctx);
      await phone(other, "deny", { name: owner.name });
      expect(await failureOf(c.adapter.awaitApproval!(c.http, asked, 20_000, ctx))).toBe(code);
    }
  });

  it("is LOGIN_SECOND_FACTOR_REQUIRED, not retryable, when the request lapses unanswered", async () => {
    const lapsing = await started({ phone: { expirySeconds: 0 } });
    const { adapter, http } = connect(lapsing);
    const pending = await adapter.requestApproval!(http, kakao, ctx);
    const failure = await adapter.awaitApproval!(http, pending, 20_000, ctx).catch((err: unknown) => err as { code: string; message: string });
    expect(failure).toMatchObject({ code: "LOGIN_SECOND_FACTOR_REQUIRED", message: expect.stringContaining("OACX_TOKEN_EXPIRED") });
    const again = connect(lapsing);
    expect(await failureOf(again.adapter.login(again.http, kakao, ctx))).toBe("LOGIN_SECOND_FACTOR_REQUIRED");
  });

  it("is LOGIN_CREDENTIALS_MISMATCH for a person no app knows, a wrong birthday, or an app the person never joined, and the phone never rings", async () => {
    const cases: SimpleAuthLogin[] = [
      { ...kakao, ...UNKNOWN_PERSON },
      { ...kakao, birthDate: "19800102" },
      { ...kakao, provider: "toss" },
      { ...kakao, provider: "pass", carrier: "KT" },
    ];
    for (const credential of cases) {
      const { adapter, http } = connect(replica);
      const failure = await adapter.requestApproval!(http, credential, ctx).catch((err: unknown) => err as { code: string; message: string });
      expect(failure, credential.provider).toMatchObject({ code: "LOGIN_CREDENTIALS_MISMATCH", message: expect.stringContaining("OACX_NO_USER") });
    }
    const standing = (await (await fetch(`${replica.url}/_sandbox/hometax/phone`)).json()) as { items: unknown[] };
    expect(standing.items).toEqual([]);
    // A malformed credential is refused before any request leaves.
    const { adapter, http, sent } = connect(replica);
    expect(await failureOf(adapter.requestApproval!(http, { ...kakao, phone: "0212345678" }, ctx))).toBe("LOGIN_CREDENTIALS_MISMATCH");
    expect(await failureOf(adapter.requestApproval!(http, { ...kakao, provider: "pass" }, ctx))).toBe("LOGIN_CREDENTIALS_MISMATCH");
    expect(sent).toEqual([]);
  });

  it("waits out a busy NetFunnel queue, and is RATE_LIMITED once the wait passes its bound", async () => {
    const busy = await started({ simpleAuthQueue: { busyPolls: 3 }, phone: { approveAfterPolls: 1 } });
    const passing = connect(busy);
    await passing.adapter.login(passing.http, kakao, ctx);
    expect(passing.sent.filter((u) => u.includes("opcode=5002"))).toHaveLength(3);
    expect(passing.sent.filter((u) => u.includes("opcode=5004"))).toHaveLength(1);
    const jammed = await started({ simpleAuthQueue: { busyPolls: 1000 } });
    const waiting = connect(jammed, { netFunnelWaitSeconds: 5 });
    expect(await failureOf(waiting.adapter.requestApproval!(waiting.http, kakao, ctx))).toBe("RATE_LIMITED");
    const blocked = connect(await started({ simpleAuthQueue: "blocked" }));
    expect(await failureOf(blocked.adapter.requestApproval!(blocked.http, kakao, ctx))).toBe("RATE_LIMITED");
  });

  it("maps the gateway's outage, a 403 on trans, maintenance, a withdrawn app and a refused pubcLogin.do to their codes", async () => {
    const [outage, forbidden, stopped, withdrawn, refused] = await Promise.all([
      started({ gateway: { outage: true } }),
      started({ gateway: { transForbidden: true } }),
      started({ stopped: true }),
      started({ gateway: { withdrawn: ["kakao"] } }),
      started({ simpleAuthLoginRefused: true, phone: { approveAfterPolls: 1 } }),
    ]);
    const outcomes = await Promise.all(
      [outage, forbidden, stopped, withdrawn].map((sandbox) => {
        const { adapter, http } = connect(sandbox);
        return failureOf(adapter.requestApproval!(http, kakao, ctx));
      }),
    );
    const login = connect(refused);
    outcomes.push(await failureOf(login.adapter.login(login.http, kakao, ctx)));
    expect(outcomes).toEqual(["PROVIDER_ERROR", "PROVIDER_ERROR", "PROVIDER_TIME_WINDOW", "NO_VALID_CREDENTIAL", "PROVIDER_ERROR"]);
    // Each has its next step in Korean for the person.
    for (const code of outcomes) expect(SIMPLE_AUTH_NEXT_STEPS[code as keyof typeof SIMPLE_AUTH_NEXT_STEPS]).toMatch(/[가-힣]/);
  });

  it("awaitApproval polls at the facts' pace and returns null within waitMs while the person has not answered", async () => {
    let now = Date.now();
    const clock: HometaxDeps = { now: () => now, sleep: async (ms) => void (now += ms), random: () => 0 };
    const { adapter, http, sent } = connect(replica, {}, clock);
    const pending = await adapter.requestApproval!(http, kakao, ctx);
    const before = now;
    expect(await adapter.awaitApproval!(http, pending, 20_000, ctx)).toBeNull();
    expect(now - before).toBeLessThanOrEqual(20_000);
    // Every 3 s (K11), from the first poll at once: 0, 3, … 18 s.
    expect(sent.filter((u) => u.includes("authen/result"))).toHaveLength(7);
    await phone(replica, "deny", { name: owner.name });
  });

  it("sends the user fields as base64 by default; plain text is an option the strict gateway refuses, and either txId reaches the result", async () => {
    const plain = connect(replica, { simpleAuthFields: "plain" });
    // Not the person's data but the adapter's form: UNKNOWN, the gateway's words for the operators.
    expect(await plain.adapter.requestApproval!(plain.http, kakao, ctx).catch((err: unknown) => err)).toMatchObject({ code: "UNKNOWN", message: expect.stringContaining("요청 Body 형식이 잘못되었습니다") });
    const lenient = await started({ gateway: { acceptPlainFields: true }, phone: { approveAfterPolls: 1 } });
    for (const options of [{ simpleAuthFields: "plain" }, { simpleAuthResultTxId: "reqTxId" }] as const) {
      const c = connect(lenient, options);
      expect((await c.adapter.login(c.http, kakao, ctx)).portal.userCertClCd).toBe("19");
    }
  });

  it("the sandbox phone's page shows the request (app, masked name, time left) and its 승인 button approves it", async () => {
    const { adapter, http } = connect(replica);
    const pending = await adapter.requestApproval!(http, kakao, ctx);
    const page = await (await fetch(`${replica.url}/hometax-phone`)).text();
    expect(page).toContain("카카오");
    expect(page).toContain("홍*동");
    expect(page).not.toContain(owner.name);
    expect(page).toMatch(/남은 시간 <strong data-left="\d+">[45]분 \d+초/);
    const cxId = /name="cxId" value="([0-9a-f]+)"/.exec(page)![1]!;
    const tapped = await fetch(`${replica.url}/hometax-phone/approve`, { method: "POST", body: new URLSearchParams({ cxId }), redirect: "manual" });
    expect(tapped.status).toBe(303);
    expect(await adapter.awaitApproval!(http, pending, 0, ctx)).not.toBeNull();
  });

  it("runs the live check's 간편인증 steps against the replica: asks, tells the person, waits for the phone, counts a month of tax invoices", async () => {
    const { http } = connect(replica);
    const told: string[] = [];
    const steps = await checkHometaxSimpleAuth(http, kakao, SANDBOX_BUSINESS_NUMBER, MAY, (approval) => {
      told.push(approval.provider);
      // The person approves on the sandbox phone once told.
      void phone(replica, "approve", { name: owner.name });
    }, NO_WAIT);
    expect(told).toEqual(["kakao"]);
    expect(steps.map((s) => [s.ok, s.step, s.detail.replace(/tin .*/, "tin").replace(/until .*/, "until")])).toEqual([
      [true, "간편인증 request (kakao, fields base64)", "the app was asked, until"],
      [true, 'approval and pubcLogin.do (result txId "trans")', "userCertClCd 19, tin"],
      ...SIMPLE_AUTH_CHECK_SCHEMAS.map((schema) => [true, `${schema} ${MAY.start}..${MAY.end}`, `${hometaxDocuments(SANDBOX_BUSINESS_NUMBER, schema, MAY).length} records`]),
    ]);
    // Counts only: nothing of the person's or the documents' in what it prints.
    expect(JSON.stringify(steps)).not.toContain(owner.phone);
    expect(JSON.stringify(steps)).not.toContain(owner.name);
    const unknown = await checkHometaxSimpleAuth(connect(replica).http, { ...kakao, ...UNKNOWN_PERSON }, SANDBOX_BUSINESS_NUMBER, MAY, () => undefined, NO_WAIT);
    expect(unknown).toEqual([{ step: "간편인증 request (kakao, fields base64)", ok: false, detail: expect.stringMatching(/^LOGIN_CREDENTIALS_MISMATCH: authen\/request answered 400 OACX_NO_USER/) }]);
  });
});
