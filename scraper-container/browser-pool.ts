import puppeteer, { type Browser, type BrowserContext, type Page } from "puppeteer-core";

export const CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];

/** One Chromium for the process, relaunched if it dies; each login gets its own incognito context. */
export class BrowserPool {
  private browser: Promise<Browser> | null = null;

  constructor(private readonly executablePath: string) {}

  private async current(): Promise<Browser> {
    if (this.browser) {
      const browser = await this.browser.catch(() => null);
      if (browser?.connected) return browser;
    }
    // Over a pipe, Chromium exits with this process even when it is killed outright.
    this.browser = puppeteer.launch({ executablePath: this.executablePath, args: CHROMIUM_ARGS, pipe: true });
    return this.browser;
  }

  async newContext(): Promise<{ context: BrowserContext; page: Page }> {
    const context = await (await this.current()).createBrowserContext();
    return { context, page: await context.newPage() };
  }

  async close(): Promise<void> {
    const browser = await this.browser?.catch(() => null);
    this.browser = null;
    await browser?.close();
  }
}
