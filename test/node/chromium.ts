import puppeteer, { type Browser } from "puppeteer-core";
import type { BrowserPage } from "../../collectors/adapter";
import { CHROMIUM_ARGS, DEFAULT_CHROMIUM_PATH } from "../../scraper-container/browser-pool";

export function launchChromium(): Promise<Browser> {
  return puppeteer.launch({ executablePath: process.env.CHROMIUM_PATH || DEFAULT_CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: "shell" });
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
