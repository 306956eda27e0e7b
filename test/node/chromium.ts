import puppeteer, { type Browser } from "puppeteer-core";
import type { BrowserPage } from "../../collectors/adapter";
import { CHROMIUM_LAUNCH, DEFAULT_CHROMIUM_PATH } from "../../scraper-container/browser-pool";

const executablePath = () => process.env.CHROMIUM_PATH || DEFAULT_CHROMIUM_PATH;

/** Chromium as the scraper starts it, for the adapters' tests. */
export function launchScraperChromium(): Promise<Browser> {
  return puppeteer.launch({ ...CHROMIUM_LAUNCH, executablePath: executablePath() });
}

/** Chromium for the tests that use pages as a person does, with puppeteer's request and response events to watch. */
export function launchChromium(): Promise<Browser> {
  return puppeteer.launch({ ...CHROMIUM_LAUNCH, executablePath: executablePath(), networkEnabled: true });
}

/**
 * One page for a file's tests, each test starting it as a new context would: on a blank page, without cookies (the
 * sandbox sites keep nothing else in the browser). A new context's page is a renderer process of its own, 0.25-0.3
 * CPU-seconds of Chromium whatever the page: more than a sandbox login with its account list takes in an open page
 * (0.2; docs/testing.md, "stop 54").
 */
export async function reusablePage(browser: Browser): Promise<{ page: BrowserPage; reset(): Promise<void> }> {
  const page = await (await browser.createBrowserContext()).newPage();
  const cdp = await page.createCDPSession();
  return {
    page: page as unknown as BrowserPage,
    async reset() {
      await page.goto("about:blank");
      await cdp.send("Network.clearBrowserCookies");
    },
  };
}
