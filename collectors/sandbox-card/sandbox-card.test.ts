// start-order: 1 (why: vitest.node.config.ts)
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { SANDBOX_CARD_ERROR_CODES } from "../../sandbox/sandbox-card/behaviours";
import { CERTIFICATE_CUSTOMERS } from "../../sandbox/sandbox-card/certificate-customers";
import { issueJointCertificate, type JointCertificateOptions } from "../../sandbox/certificates/issue";
import { cardGroundTruth } from "../../sandbox/sandbox-card/ground-truth";
import { MAX_INQUIRY_DAYS } from "../../sandbox/sandbox-card/site";
import { fromDay, toDay } from "../../sandbox/dates";
import { kstDate } from "../../contracts/korean-time";
import { type SandboxServer, startSandbox } from "../../sandbox/server";
import { findProvider } from "../../worker/domain/catalog/providers";
import { splitRange } from "../../worker/domain/pipeline/segments";
import { type AdapterContext, type BrowserPage, ProviderFailure } from "../adapter";
import type { Target } from "../../contracts/task-unit";
import { sandboxCard } from "./index";
import { fill, press } from "../kit/page-state";
import { specViolations } from "../../test/support/spec-field-tables";
import { type FileBrowser, scraperChromium, reusablePage } from "../../test/support/chromium";

let sandbox: SandboxServer;
let browser: FileBrowser;
let resetPage: () => Promise<void>;
let page: BrowserPage;
let ctx: AdapterContext;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  browser = await scraperChromium();
  const reusable = await reusablePage(browser);
  page = reusable.page;
  resetPage = reusable.reset;
  ctx = { baseUrl: `${sandbox.url}/card/`, timeoutMs: 30_000 };
});
afterAll(async () => {
  await browser?.close();
  await sandbox?.close();
});
beforeEach(() => resetPage());

const APPROVALS = "card.approvals.corp.v1";
const login = (password = "pass_good", loginId = "user_good") => sandboxCard.login(page, { authMethod: "PROVIDER_LOGIN", loginId, password }, ctx);
const unit = (target: Target, segment: { start: string; end: string }) => ({ jobId: "t", unitIndex: 0, schema: APPROVALS, target, segment, params: {} });
const withSchema = (schema: string, records: Record<string, unknown>[]) => records.map((r) => ({ schema, ...r }));
const byTransaction = (a: Record<string, any>, b: Record<string, any>) => (a.transactionIdentifier < b.transactionIdentifier ? -1 : 1);
const evaluate = <T>(expression: string) => page.evaluate(expression) as Promise<T>;
const settled = (expression: string) => page.waitForFunction(expression, { timeout: 40_000, polling: "mutation" });

describe("sandbox card adapter in Chromium", () => {
  it("gets past the password reminder, the security program page and the notice pop-up, then reads the card list exactly", async () => {
    await login();
    expect(page.url()).toBe(`${sandbox.url}/card/main`);
    expect(await evaluate<boolean>(`document.getElementById("noticeLayer").hidden`)).toBe(true);
    const records = withSchema("card.cards.corp.v1", await sandboxCard.collect(page, { jobId: "t", unitIndex: 0, schema: "card.cards.corp.v1", target: null, segment: null, params: {} }, ctx));
    expect(records).toEqual(cardGroundTruth("user_good").cards);
    for (const r of records) expect(specViolations(r)).toEqual([]);
    // Suspended and expired cards are on the list, as the issuer shows them.
    expect(await evaluate<string[]>(`[...document.querySelectorAll("#cardList td.state")].map((td) => td.textContent)`)).toEqual(expect.arrayContaining(["정상", "정지", "만료"]));
  });

  it("reads every card's approvals over 90-day searches and every 더보기 batch, exactly", async () => {
    const windowDays = findProvider("sandbox.card")!.pageWindowDays;
    expect(windowDays).toBe(MAX_INQUIRY_DAYS);
    const range = { start: "2026-01-01", end: "2026-07-31" };
    await login();
    const targets = await sandboxCard.discoverTargets(page, APPROVALS, ctx);
    const truth = cardGroundTruth("user_good", range).approvals;
    expect(targets.map((t) => t.id)).toEqual(cardGroundTruth("user_good").cards.map((c) => c.cardNumberMasked));
    const segments = splitRange(range.start, range.end, windowDays);
    expect(segments).toHaveLength(3);
    const collected: Record<string, unknown>[] = [];
    for (const target of targets) for (const segment of segments) collected.push(...(await sandboxCard.collect(page, unit(target, segment), ctx)));
    const records = withSchema(APPROVALS, collected);
    for (const r of records) expect(specViolations(r), JSON.stringify(r)).toEqual([]);
    expect([...records].sort(byTransaction)).toEqual([...truth].sort(byTransaction));
    // Several batches a search, and the variety the history holds, went through the page.
    expect(truth.filter((a) => a.cardNumberMasked === targets[0]!.id && a.approvedAt < "2026-04-01").length).toBeGreaterThan(60);
    expect(new Set(truth.map((a) => a.status))).toEqual(new Set(["APPROVED", "CANCELLED", "PARTIALLY_CANCELLED", "DECLINED"]));
  });

  it("answers a session's units on the one approvals page it opened, each unit its own window exactly", async () => {
    await login();
    const targets = await sandboxCard.discoverTargets(page, APPROVALS, ctx);
    // Windows of a day or a few: each fits one batch, so each unit's first batch follows one that said batch 1 too.
    const windows = [{ start: "2026-03-02", end: "2026-03-06" }, { start: "2026-03-09", end: "2026-03-09" }];
    const documents = new Set<unknown>();
    let read = 0;
    let unitIndex = 0;
    for (const target of targets) {
      for (const segment of windows) {
        const records = withSchema(APPROVALS, await sandboxCard.collect(page, { ...unit(target, segment), unitIndex: unitIndex++ }, ctx));
        expect([...records].sort(byTransaction)).toEqual(cardGroundTruth("user_good", segment).approvals.filter((a) => a.cardNumberMasked === target.id).sort(byTransaction));
        read += records.length;
        // A document's time origin is its own: one origin over every unit is one approvals page, opened once.
        documents.add(await page.evaluate("performance.timeOrigin"));
      }
    }
    expect(unitIndex).toBe(targets.length * windows.length);
    expect(read).toBeGreaterThan(0);
    expect(documents.size).toBe(1);
  });

  it("reads approvals the issuer has authorised but not yet captured", async () => {
    const range = { start: fromDay(toDay(kstDate()) - 6), end: kstDate() };
    // On about one day in 80, a login's last week holds nothing still waiting for capture; the logins' histories
    // differ, so the first of a few whose week does (over the five years from 2026, the third at most).
    const loginId = ["user_good", "user_recent_2", "user_recent_3", "user_recent_4"].find((id) => cardGroundTruth(id, range).approvals.some((a) => a.lifecycleStage === "AUTHORIZED"));
    expect(loginId).toBeDefined();
    await login("pass_good", loginId);
    const targets = await sandboxCard.discoverTargets(page, APPROVALS, ctx);
    const collected: Record<string, unknown>[] = [];
    for (const target of targets) collected.push(...(await sandboxCard.collect(page, unit(target, range), ctx)));
    const truth = cardGroundTruth(loginId!, range).approvals;
    expect(withSchema(APPROVALS, collected).sort(byTransaction)).toEqual([...truth].sort(byTransaction));
  });

  it("holds a login on the pages after the password until they are answered", async () => {
    await page.goto(`${ctx.baseUrl}login`);
    await fill(page, "#custId", "user_good");
    await fill(page, "#custPw", "pass_good");
    await press(page, "#btnIdLogin");
    await settled(`location.pathname.endsWith("/password-reminder")`);
    await page.goto(`${ctx.baseUrl}main`);
    expect(page.url()).toBe(`${ctx.baseUrl}password-reminder`);
    expect(await evaluate<number>(`fetch("api/cards").then((r) => r.status)`)).toBe(403);
    await press(page, "#btnLater");
    await settled(`location.pathname.endsWith("/security")`);
    await page.goto(`${ctx.baseUrl}approvals`);
    expect(page.url()).toBe(`${ctx.baseUrl}security`);
    await press(page, "#btnSkipInstall");
    await settled(`location.pathname.endsWith("/main")`);
    expect(await evaluate<number>(`fetch("api/cards").then((r) => r.status)`)).toBe(200);
  });

  it("finds the notice pop-up taking the clicks meant for the page, and the adapter closing it for the day", async () => {
    await login();
    const [target] = await sandboxCard.discoverTargets(page, APPROVALS, ctx);
    // As a new day's visit: the pop-up is back.
    await page.evaluate(`document.cookie = "CARDNOTICE=; path=/card; max-age=0"`);
    await page.goto(`${ctx.baseUrl}approvals`);
    await settled(`document.getElementById("btnInquiry").disabled === false`);
    expect(await evaluate<boolean>(`document.getElementById("noticeLayer").hidden`)).toBe(false);
    await page.evaluate(`document.getElementById("startDate").value = "2026.03.01"; document.getElementById("endDate").value = "2026.03.31";`);
    await press(page, "#btnInquiry");
    await new Promise((r) => setTimeout(r, 500));
    expect(await evaluate<string>(`document.getElementById("result").dataset.state`)).toBe("idle");
    const segment = { start: "2026-03-01", end: "2026-03-31" };
    const records = withSchema(APPROVALS, await sandboxCard.collect(page, unit(target!, segment), ctx));
    expect(records.sort(byTransaction)).toEqual(cardGroundTruth("user_good", segment).approvals.filter((a) => a.cardNumberMasked === target!.id).sort(byTransaction));
    await page.goto(`${ctx.baseUrl}approvals`);
    await settled(`document.getElementById("btnInquiry").disabled === false`);
    expect(await evaluate<boolean>(`document.getElementById("noticeLayer").hidden`)).toBe(true);
  });

  it("maps the issuer's 90-day search limit to INVALID_DATE_RANGE", async () => {
    await login();
    const [target] = await sandboxCard.discoverTargets(page, APPROVALS, ctx);
    await expect(sandboxCard.collect(page, unit(target!, { start: "2026-01-01", end: "2026-04-30" }), ctx)).rejects.toMatchObject({ code: "INVALID_DATE_RANGE" });
  });

  it("fails INVALID_CARD_FOR_SERVICE for a card the issuer does not list", async () => {
    await login();
    const missing = { id: "1234-56**-****-7890", attributes: {} };
    await expect(sandboxCard.collect(page, unit(missing, { start: "2026-03-01", end: "2026-03-31" }), ctx)).rejects.toMatchObject({ code: "INVALID_CARD_FOR_SERVICE" });
  });

  it.each(SANDBOX_CARD_ERROR_CODES)("recognises what the site shows for error_%s", async (code) => {
    const attempt = async () => {
      await login(`error_${code}`);
      const [target] = await sandboxCard.discoverTargets(page, APPROVALS, ctx);
      await sandboxCard.collect(page, unit(target!, { start: "2026-01-01", end: "2026-01-31" }), ctx);
    };
    const failure = await attempt().then(() => null, (err: unknown) => err);
    expect(failure).toBeInstanceOf(ProviderFailure);
    expect((failure as ProviderFailure).code).toBe(code);
  });

  it("rejects an unknown password as LOGIN_FAILED", async () => {
    await expect(login("not-the-password")).rejects.toMatchObject({ code: "LOGIN_FAILED" });
  });
});

describe("sandbox card adapter, business-certificate login", () => {
  const certificateLogin = async (options: JointCertificateOptions, password?: string) => {
    const issued = await issueJointCertificate(options);
    return sandboxCard.login(page, { authMethod: "CERTIFICATE", certificate: issued.certificate, privateKey: issued.privateKey, password: password ?? issued.password }, ctx);
  };

  it("signs the issuer's challenge with the business's certificate, gets past the same pages and reads that customer's cards and approvals exactly", async () => {
    await certificateLogin({ idn: "1208800767" });
    expect(page.url()).toBe(`${sandbox.url}/card/main`);
    const customer = CERTIFICATE_CUSTOMERS["1208800767"]!;
    const cards = await sandboxCard.collect(page, { jobId: "t", unitIndex: 0, schema: "card.cards.corp.v1", target: null, segment: null, params: {} }, ctx);
    expect(withSchema("card.cards.corp.v1", cards)).toEqual(cardGroundTruth(customer).cards);
    const [target] = await sandboxCard.discoverTargets(page, APPROVALS, ctx);
    const segment = { start: "2026-03-01", end: "2026-03-31" };
    const approvals = withSchema(APPROVALS, await sandboxCard.collect(page, unit(target!, segment), ctx));
    expect(approvals.sort(byTransaction)).toEqual(cardGroundTruth(customer, segment).approvals.filter((a) => a.cardNumberMasked === target!.id).sort(byTransaction));
  });

  it("tells the customers apart by the certificate's business", async () => {
    await certificateLogin({ idn: "2208162517", encryption: "PBES2_AES256_CBC" });
    const cards = await sandboxCard.collect(page, { jobId: "t", unitIndex: 0, schema: "card.cards.corp.v1", target: null, segment: null, params: {} }, ctx);
    expect(withSchema("card.cards.corp.v1", cards)).toEqual(cardGroundTruth(CERTIFICATE_CUSTOMERS["2208162517"]!).cards);
  });

  it.each([
    ["a wrong certificate password", "LOGIN_FAILED", "인증서 암호", { password: "cert-pass-1!" }, "other-pass"],
    ["a certificate of a business that is not the issuer's customer", "CERT_NOT_REGISTERED_AT_PROVIDER", "법인카드 홈페이지에 인증서를", { idn: "3148100005" }, undefined],
    ["a revoked certificate", "CERT_INVALID", "폐지된", { revoked: true }, undefined],
    ["an expired certificate", "CERT_INVALID", "인증서의 유효기간", { notBefore: new Date(Date.now() - 400 * 86_400_000), notAfter: new Date(Date.now() - 86_400_000) }, undefined],
    ["a personal certificate", "CERT_INVALID", "사업자용 인증서가 아닙니다", { holder: "PERSONAL" }, undefined],
  ] as const)("maps %s to %s", async (_name, code, shown, options, password) => {
    await expect(certificateLogin(options, password)).rejects.toMatchObject({ code, message: expect.stringContaining(shown) });
  });
});
