import type { BrowserWorker } from "@cloudflare/puppeteer";
import type { AdapterContext, AdapterCredential, BrowserAdapter, BrowserPage, RawRecord, Target, TaskUnit } from "../../../collectors/adapter";
import { ProviderFailure } from "../../../collectors/adapter";
import { base64UrlDecode, base64UrlEncode } from "../../../contracts/base64url";
import type { BrowserInstitution } from "../../../collectors/registry";
import { type OpenedSession, type ScraperPort, SessionGone } from "./port";
import { reportingUnreadable } from "../../../collectors/kit/page-report";

/** A remote browser that outlives one request: launched once per job, reconnected for each unit. */
export interface RemoteBrowser {
  sessionId(): string;
  pages(): Promise<BrowserPage[]>;
  newPage(): Promise<BrowserPage>;
  disconnect(): Promise<void>;
  close(): Promise<void>;
}

export interface BrowserLauncher {
  launch(): Promise<RemoteBrowser>;
  connect(sessionId: string): Promise<RemoteBrowser>;
}

/** Browser Rendering as a launcher; the library loads only for providers that use it. */
export function browserRenderingLauncher(binding: BrowserWorker, keepAliveMs = 600_000): BrowserLauncher {
  const load = async () => (await import("@cloudflare/puppeteer")).default;
  const wrap = (browser: { sessionId(): string; pages(): Promise<unknown[]>; newPage(): Promise<unknown>; disconnect(): Promise<void>; close(): Promise<void> }): RemoteBrowser => ({
    sessionId: () => browser.sessionId(),
    pages: async () => (await browser.pages()) as BrowserPage[],
    newPage: async () => (await browser.newPage()) as BrowserPage,
    disconnect: () => browser.disconnect(),
    close: () => browser.close(),
  });
  return {
    launch: async () => wrap(await (await load()).launch(binding, { keep_alive: keepAliveMs })),
    connect: async (sessionId) => wrap(await (await load()).connect(binding, sessionId)),
  };
}

interface SessionRef {
  /** Browser session id. */
  b: string;
  /** Provider code. */
  p: string;
}

const encodeRef = (ref: SessionRef) => base64UrlEncode(new TextEncoder().encode(JSON.stringify(ref)));
function decodeRef(sessionId: string): SessionRef {
  const bytes = base64UrlDecode(sessionId);
  if (!bytes) throw new SessionGone();
  return JSON.parse(new TextDecoder().decode(bytes)) as SessionRef;
}

/**
 * Runs adapters in the worker on a remote browser. The session id carries
 * what a later invocation needs to find the logged-in page again, since
 * nothing survives in memory between queue deliveries.
 */
export class BrowserRenderingScraper implements ScraperPort {
  constructor(
    private readonly launcher: BrowserLauncher,
    /** The provider table resolved against the worker's own configuration (SANDBOX_BASE_URL). */
    private readonly institutionFor: (providerCode: string) => BrowserInstitution | undefined,
  ) {}

  private institution(code: string): BrowserInstitution {
    const institution = this.institutionFor(code);
    if (!institution) throw new ProviderFailure("PROVIDER_ERROR", `no adapter for ${code}`);
    return institution;
  }

  private async onPage<T>(sessionId: string, work: (page: BrowserPage, adapter: BrowserAdapter, ctx: AdapterContext) => Promise<T>): Promise<T> {
    const ref = decodeRef(sessionId);
    let browser: RemoteBrowser;
    try {
      browser = await this.launcher.connect(ref.b);
    } catch {
      throw new SessionGone();
    }
    try {
      const [page] = await browser.pages();
      if (!page) throw new SessionGone();
      const { adapter, baseUrl } = this.institution(ref.p);
      return await work(page, adapter, { baseUrl });
    } finally {
      await browser.disconnect();
    }
  }

  async openSession(providerCode: string, credential: AdapterCredential, businessNumber?: string): Promise<OpenedSession> {
    const { adapter, baseUrl } = this.institution(providerCode);
    // A deployment's key is held by the scraper only; no site here takes one.
    if (credential.authMethod === "DEPLOYMENT_KEY") throw new ProviderFailure("INTERNAL_ERROR", `${providerCode} needs the scraper`);
    let browser: RemoteBrowser;
    try {
      browser = await this.launcher.launch();
    } catch {
      throw new ProviderFailure("ENGINE_CONCURRENCY_LIMIT", "no browser available");
    }
    try {
      const page = await browser.newPage();
      await reportingUnreadable(adapter, page, "login", () => adapter.login(page, credential, { baseUrl, businessNumber }));
    } catch (err) {
      await browser.close();
      throw err;
    }
    const sessionId = encodeRef({ b: browser.sessionId(), p: providerCode });
    await browser.disconnect();
    return { sessionId };
  }

  /** Its logins are made whole in openSession: no browser adapter waits for a phone. */
  async ready(): Promise<void> {}

  targets(sessionId: string, schema: string): Promise<Target[]> {
    return this.onPage(sessionId, (page, adapter, ctx) => reportingUnreadable(adapter, page, `targets ${schema}`, () => adapter.discoverTargets(page, schema, ctx)));
  }

  collect(sessionId: string, unit: TaskUnit): Promise<RawRecord[]> {
    return this.onPage(sessionId, (page, adapter, ctx) => reportingUnreadable(adapter, page, `collect ${unit.schema}`, () => adapter.collect(page, unit, ctx)));
  }

  async closeSession(sessionId: string): Promise<void> {
    try {
      const browser = await this.launcher.connect(decodeRef(sessionId).b);
      await browser.close();
    } catch {
      // Already gone: Browser Rendering ends idle sessions after keep_alive.
    }
  }
}
