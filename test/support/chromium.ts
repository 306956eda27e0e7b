import puppeteer, { type Browser, type BrowserContext, type BrowserContextOptions, type LaunchOptions } from "puppeteer-core";
import type { BrowserPage } from "../../collectors/adapter";
import { CHROMIUM_LAUNCH, DEFAULT_CHROMIUM_PATH } from "../../scraper-container/browser-pool";

const executablePath = () => process.env.CHROMIUM_PATH || DEFAULT_CHROMIUM_PATH;

/** Chromium as the scraper starts it, a browser of the caller's own (the Browser Rendering tests launch and close it). */
export function launchScraperChromium(): Promise<Browser> {
  return puppeteer.launch({ ...CHROMIUM_LAUNCH, executablePath: executablePath() });
}

/** A file's share of its test worker's Chromium: contexts of its own, all closed when the file closes it. */
export interface FileBrowser {
  createBrowserContext(options?: BrowserContextOptions): Promise<BrowserContext>;
  close(): Promise<void>;
}

const shared = new Map<string, Promise<Browser>>();

/**
 * The test worker's Chromium of this launch, started by the first file that asks and kept for the files after it:
 * the files of a worker share its modules (`isolate: false`), and a launch with its first page costs about 1.7
 * CPU-seconds against 0.5 for a context's page (docs/testing.md, "stop 56"). Over a pipe, Chromium ends with the
 * worker's process, however that ends.
 */
async function shareOfWorkerChromium(name: string, launch: LaunchOptions): Promise<FileBrowser> {
  let browser = await shared.get(name)?.catch(() => null);
  if (!browser?.connected) {
    const launched = puppeteer.launch({ ...launch, executablePath: executablePath(), pipe: true });
    shared.set(name, launched);
    browser = await launched;
  }
  const opened: BrowserContext[] = [];
  const running = browser;
  return {
    async createBrowserContext(options) {
      const context = await running.createBrowserContext(options);
      opened.push(context);
      return context;
    },
    // A page left open would go on running its timers (a console page polling a job) under the next file.
    close: () => Promise.all(opened.splice(0).map((context) => context.close().catch(() => undefined))).then(() => undefined),
  };
}

/** Chromium as the scraper starts it, for the adapters' tests. */
export const scraperChromium = (): Promise<FileBrowser> => shareOfWorkerChromium("scraper", CHROMIUM_LAUNCH);

/** Chromium for the tests that use pages as a person does, with puppeteer's request and response events to watch. */
export const personChromium = (): Promise<FileBrowser> => shareOfWorkerChromium("person", { ...CHROMIUM_LAUNCH, networkEnabled: true });

/**
 * One page for a file's tests, each test starting it as a new context would: on a blank page, without cookies (the
 * sandbox sites keep nothing else in the browser). A new context's page is a renderer process of its own, 0.25-0.3
 * CPU-seconds of Chromium whatever the page: more than a sandbox login with its account list takes in an open page
 * (0.2; docs/testing.md, "stop 54").
 */
export async function reusablePage(browser: FileBrowser): Promise<{ page: BrowserPage; reset(): Promise<void> }> {
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
