// start-order: 4 (why: vitest.node.config.ts)
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { SANDBOX_BANK_ERROR_CODES } from "../../sandbox/sandbox-bank/behaviours";
import { bankGroundTruth } from "../../sandbox/sandbox-bank/ground-truth";
import { type SandboxServer, startSandbox } from "../../sandbox/server";
import { splitRange } from "../../worker/domain/pipeline/segments";
import { type AdapterContext, type BrowserPage, ProviderFailure } from "../adapter";
import { sandboxBank } from "./index";
import { BankAccountRecord, BankTransactionRecord } from "../../contracts/records/bank";
import { type FileBrowser, scraperChromium, reusablePage } from "../../test/support/chromium";
import { specViolations } from "../../test/support/spec-field-tables";

let sandbox: SandboxServer;
let browser: FileBrowser;
let resetPage: () => Promise<void>;
let page: BrowserPage;
let ctx: AdapterContext;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, hangMs: 3000 });
  browser = await scraperChromium();
  const reusable = await reusablePage(browser);
  page = reusable.page;
  resetPage = reusable.reset;
  ctx = { baseUrl: `${sandbox.url}/bank/`, timeoutMs: 1500 };
});
afterAll(async () => {
  await browser?.close();
  await sandbox?.close();
});
beforeEach(() => resetPage());

const login = (password: string) => sandboxBank.login(page, { authMethod: "PROVIDER_LOGIN", loginId: "user_good", password }, { ...ctx, timeoutMs: 30_000 });
const withSchema = (schema: string, records: Record<string, unknown>[]) => records.map((r) => ({ schema, ...r }));

describe("sandbox bank adapter in Chromium", () => {
  it("reads the account list exactly", async () => {
    await login("pass_good");
    const records = withSchema("bank.accounts.cb.v1", await sandboxBank.collect(page, { jobId: "t", unitIndex: 0, schema: "bank.accounts.cb.v1", target: null, segment: null, params: {} }, ctx));
    expect(records).toEqual(bankGroundTruth("user_good").accounts);
    for (const r of records) expect(BankAccountRecord.parse(r)).toEqual(r);
    expect(records.flatMap(specViolations)).toEqual([]);
  });

  it("reads four months of every account over 31-day windows and all result pages, exactly", async () => {
    await login("pass_good");
    const range = { start: "2026-01-01", end: "2026-04-30" };
    const targets = await sandboxBank.discoverTargets(page, "bank.transactions.cb.v1", { ...ctx, timeoutMs: 30_000 });
    expect(targets.map((t) => t.id)).toEqual(bankGroundTruth("user_good").accounts.map((a) => a.accountNumber));
    const collected: Record<string, unknown>[] = [];
    let unitIndex = 0;
    for (const target of targets) {
      for (const segment of splitRange(range.start, range.end, 31)) {
        collected.push(...(await sandboxBank.collect(page, { jobId: "t", unitIndex: unitIndex++, schema: "bank.transactions.cb.v1", target, segment, params: {} }, { ...ctx, timeoutMs: 30_000 })));
      }
    }
    const records = withSchema("bank.transactions.cb.v1", collected);
    for (const r of records) expect(BankTransactionRecord.parse(r)).toEqual(r);
    expect(records.flatMap(specViolations)).toEqual([]);
    expect(records).toEqual(bankGroundTruth("user_good", range).transactions);
  });

  it("answers a session's units on the one inquiry page it opened, each unit its own window exactly", async () => {
    await login("pass_good");
    const targets = await sandboxBank.discoverTargets(page, "bank.transactions.cb.v1", ctx);
    // Windows of a day or a few: each fits one result page, so each unit's first page follows one that said page 1 too.
    const windows = [{ start: "2026-02-01", end: "2026-02-03" }, { start: "2026-02-04", end: "2026-02-04" }];
    const documents = new Set<unknown>();
    let unitIndex = 0;
    for (const target of targets) {
      for (const segment of windows) {
        const records = await sandboxBank.collect(page, { jobId: "t", unitIndex: unitIndex++, schema: "bank.transactions.cb.v1", target, segment, params: {} }, ctx);
        expect(withSchema("bank.transactions.cb.v1", records)).toEqual(bankGroundTruth("user_good", segment).transactions.filter((t) => t.accountNumber === target.id));
        // A document's time origin is its own: one origin over every unit is one inquiry page, opened once.
        documents.add(await page.evaluate("performance.timeOrigin"));
      }
    }
    expect(unitIndex).toBe(targets.length * windows.length);
    expect(documents.size).toBe(1);
  });

  it("maps the site's own range limit to INVALID_DATE_RANGE", async () => {
    await login("pass_good");
    const [target] = await sandboxBank.discoverTargets(page, "bank.transactions.cb.v1", ctx);
    const unit = { jobId: "t", unitIndex: 0, schema: "bank.transactions.cb.v1", target: target!, segment: { start: "2026-01-01", end: "2026-03-01" }, params: {} };
    await expect(sandboxBank.collect(page, unit, ctx)).rejects.toMatchObject({ code: "INVALID_DATE_RANGE" });
  });

  it.each(SANDBOX_BANK_ERROR_CODES)("recognises what the site shows for error_%s", async (code) => {
    const attempt = async () => {
      await login(`error_${code}`);
      const [target] = await sandboxBank.discoverTargets(page, "bank.transactions.cb.v1", ctx);
      await sandboxBank.collect(page, { jobId: "t", unitIndex: 0, schema: "bank.transactions.cb.v1", target: target!, segment: { start: "2026-01-01", end: "2026-01-31" }, params: {} }, ctx);
    };
    const failure = await attempt().then(() => null, (err: unknown) => err);
    expect(failure).toBeInstanceOf(ProviderFailure);
    expect((failure as ProviderFailure).code).toBe(code);
  });

  it("rejects an unknown password as LOGIN_FAILED", async () => {
    await expect(login("not-the-password")).rejects.toMatchObject({ code: "LOGIN_FAILED" });
  });
});
