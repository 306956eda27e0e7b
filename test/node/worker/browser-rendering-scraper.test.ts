import puppeteer, { type Browser } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bankGroundTruth } from "../../../sandbox/sandbox-bank/ground-truth";
import { type SandboxServer, startSandbox } from "../../../sandbox/server";
import { BrowserRenderingScraper, type BrowserLauncher, type RemoteBrowser } from "../../../worker/domain/scraper/browser-rendering-client";
import { SessionGone } from "../../../worker/domain/scraper/port";
import { ReportedFailure } from "../../../collectors/kit/page-report";
import type { BrowserPage } from "../../../collectors/adapter";
import { browserInstitutionFor } from "../../../collectors/registry";
import { launchScraperChromium } from "../../support/chromium";

let sandbox: SandboxServer;
const launched: Browser[] = [];

/**
 * Stands in for the Browser Rendering binding with a local Chromium reached
 * the same way: launch once, then reconnect by session id (here the DevTools
 * endpoint) from what would be a later worker invocation.
 */
const localLauncher: BrowserLauncher = {
  async launch() {
    const browser = await launchScraperChromium();
    launched.push(browser);
    return remote(browser);
  },
  async connect(sessionId) {
    return remote(await puppeteer.connect({ browserWSEndpoint: sessionId }));
  },
};

function remote(browser: Browser): RemoteBrowser {
  return {
    sessionId: () => browser.wsEndpoint(),
    pages: async () => (await browser.pages()).filter((p) => p.url().startsWith("http")) as unknown as BrowserPage[],
    newPage: async () => (await browser.newPage()) as unknown as BrowserPage,
    disconnect: () => browser.disconnect(),
    close: () => browser.close(),
  };
}

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
});
afterAll(async () => {
  await Promise.all(launched.map((b) => b.close().catch(() => undefined)));
  await sandbox?.close();
});

describe("Browser Rendering scraper", () => {
  it("runs the adapter across reconnections on one login and returns exact records", async () => {
    const scraper = new BrowserRenderingScraper(localLauncher, (code) => browserInstitutionFor(code, sandbox.url));
    const { sessionId } = await scraper.openSession("sandbox.bank", { authMethod: "PROVIDER_LOGIN", loginId: "user_good", password: "pass_good" });
    const targets = await scraper.targets(sessionId, "bank.transactions.cb.v1");
    const records = await scraper.collect(sessionId, { jobId: "j", unitIndex: 0, schema: "bank.transactions.cb.v1", target: targets[1]!, segment: { start: "2026-03-01", end: "2026-03-31" }, params: {} });
    const truth = bankGroundTruth("user_good", { start: "2026-03-01", end: "2026-03-31" }).transactions.filter((t) => t.accountNumber === targets[1]!.id);
    expect(records.map((r) => ({ schema: "bank.transactions.cb.v1", ...r }))).toEqual(truth);
    expect(launched).toHaveLength(1);
    await scraper.closeSession(sessionId);
    await expect(scraper.targets(sessionId, "bank.transactions.cb.v1")).rejects.toBeInstanceOf(SessionGone);
  });

  it("reports institution failures from login as the adapter's catalog code", async () => {
    const scraper = new BrowserRenderingScraper(localLauncher, (code) => browserInstitutionFor(code, sandbox.url));
    await expect(scraper.openSession("sandbox.bank", { authMethod: "PROVIDER_LOGIN", loginId: "user_good", password: "error_PROVIDER_TIME_WINDOW" })).rejects.toMatchObject({ code: "PROVIDER_TIME_WINDOW" });
  });

  it("keeps a report of a page the adapter has never seen, redacted, as the container's scraper does", async () => {
    const scraper = new BrowserRenderingScraper(localLauncher, (code) => browserInstitutionFor(code, sandbox.url));
    const loginId = `rendering_${Date.now()}`;
    await fetch(`${sandbox.url}/bank/sandbox/page-changes?loginId=${loginId}`, { method: "PUT", body: JSON.stringify({ change: "login-interstitial" }) });
    const failure = await scraper.openSession("sandbox.bank", { authMethod: "PROVIDER_LOGIN", loginId, password: "pass_good" }).catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(ReportedFailure);
    const { report } = failure as ReportedFailure;
    expect(report).toMatchObject({ surprise: "SCRAPING_PARSER_NOT_FOUND", step: "login", url: expect.stringMatching(/\/bank\/security-notice$/) });
    expect(report.html).toContain("○○○ 고객님");
    expect(report.html).not.toContain("010-2345-6789");
    expect(report.screenshot).toMatch(/^\/9j\//);
  });
});
