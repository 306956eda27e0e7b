import puppeteer, { type Browser, type BrowserContext, type LaunchOptions, type Page } from "puppeteer-core";
import type { SiteFence } from "./site-fence";

/**
 * Chromium's headless shell (Debian's chromium-headless-shell): the same Blink and V8 as the full browser without its
 * windowing and GPU machinery, which a scraper never shows; a login costs about 2.5 times less CPU (the sandbox
 * bank's adapter tests: 11.7 s against 29.3 s).
 */
export const DEFAULT_CHROMIUM_PATH = "/usr/bin/chromium-headless-shell";

/**
 * WebRTC may use UDP only through a proxy, which the site fence's proxy never offers, so a page cannot send UDP
 * around the fence: the full browser reads that policy from `--webrtc-ip-handling-policy`, the headless shell only
 * from `--force-webrtc-ip-handling-policy` (without it, the site-fence test's STUN packets arrived), so both are
 * given. Chromium's own sandbox stays on where it can: it refuses to start as root with it, so only a
 * root process (a developer's machine, CI) turns it off; the container image runs as the `node` user.
 */
const CHROMIUM_ARGS = [
  "--headless",
  ...(process.getuid?.() === 0 ? ["--no-sandbox"] : []),
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--webrtc-ip-handling-policy=disable_non_proxied_udp",
  "--force-webrtc-ip-handling-policy=disable_non_proxied_udp",
];

/**
 * How the scraper starts Chromium (the executable's path aside). Puppeteer follows no network or issue events: no
 * adapter reads a request or a response (not even `goto`'s answer), and following them cost Chromium about 9% and this
 * process about 13% of the CPU a bank's transaction unit takes (docs/testing.md, "stop 55").
 */
export const CHROMIUM_LAUNCH = { args: CHROMIUM_ARGS, headless: "shell", networkEnabled: false, issuesEnabled: false } as const satisfies LaunchOptions;

/** One Chromium for the process, relaunched if it dies; each login gets its own incognito context, fenced to its site. */
export class BrowserPool {
  private browser: Promise<Browser> | null = null;

  constructor(
    private readonly executablePath: string,
    private readonly fence: SiteFence,
  ) {}

  private async current(): Promise<Browser> {
    if (this.browser) {
      const browser = await this.browser.catch(() => null);
      if (browser?.connected) return browser;
    }
    // Over a pipe, Chromium exits with this process even when it is killed outright.
    this.browser = puppeteer.launch({ ...CHROMIUM_LAUNCH, executablePath: this.executablePath, pipe: true });
    return this.browser;
  }

  /** A context whose every request stays on `origins`. */
  async newContext(origins: readonly string[]): Promise<{ context: BrowserContext; page: Page }> {
    const context = await (await this.current()).createBrowserContext(this.fence.contextOptions(origins));
    try {
      return { context, page: await context.newPage() };
    } catch (err) {
      // A page that never came (an overloaded browser) must not leave its context counted against the engine.
      await context.close().catch(() => undefined);
      throw err;
    }
  }

  /** Incognito contexts open in the browser: one per session or login in flight. */
  async contextCount(): Promise<number> {
    const browser = await this.browser?.catch(() => null);
    return browser?.connected ? browser.browserContexts().filter((context) => context !== browser.defaultBrowserContext()).length : 0;
  }

  async close(): Promise<void> {
    const browser = await this.browser?.catch(() => null);
    this.browser = null;
    await browser?.close();
  }
}
