import { type LoginCredential, ProviderFailure, type RawRecord, type Target, type TaskUnit } from "../../collectors/adapter";
import {
  type CollectRequest,
  type CollectResponse,
  type FailureResponse,
  type OpenSessionRequest,
  type OpenSessionResponse,
  scraperAuthorization,
  scraperPaths,
  type TargetsRequest,
  type TargetsResponse,
} from "../../collectors/scraper-protocol";
import { type ScraperPort, SessionGone } from "./scraper-port";

/**
 * How long the worker waits for each kind of call. The adapters' own page
 * waits (PAGE_TIMEOUT_MS, 15 s each) answer a slow institution with TIMEOUT
 * well inside these, so a call that outlives its bound means the scraper
 * itself is stuck: ENGINE_CRASHED, retried like a crash.
 */
export interface ScraperCallBounds {
  /** A login: a few pages of the institution. */
  openSessionMs: number;
  targetsMs: number;
  /** One unit, possibly queued behind the session's previous one; the credential lease (120 s) would not outlast it anyway. */
  collectMs: number;
  /** Short: the scraper closes idle sessions itself, and the sweep closes sessions one after another. */
  closeMs: number;
}

const DEFAULT_CALL_BOUNDS: ScraperCallBounds = { openSessionMs: 90_000, targetsMs: 60_000, collectMs: 120_000, closeMs: 10_000 };

/** The scraper container's HTTP protocol (docs/scraper-runtime.md). */
export class ContainerScraper implements ScraperPort {
  constructor(
    private readonly baseUrl: string,
    private readonly sharedSecret: string,
    private readonly bounds: ScraperCallBounds = DEFAULT_CALL_BOUNDS,
  ) {}

  private async call<T>(method: string, path: string, timeoutMs: number, body?: unknown): Promise<T> {
    let response: Response;
    let text: string;
    try {
      response = await fetch(`${this.baseUrl}${path}`, {
        method,
        headers: { Authorization: scraperAuthorization(this.sharedSecret), ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
      text = await response.text();
    } catch (err) {
      // Refused, reset, or no whole answer in time: the scraper is down, restarting or stuck.
      const stuck = err instanceof Error && err.name === "TimeoutError";
      throw new ProviderFailure("ENGINE_CRASHED", stuck ? `scraper gave no answer to ${method} ${path} within ${timeoutMs} ms` : "scraper unreachable");
    }
    if (response.ok) return (text ? JSON.parse(text) : undefined) as T;
    let parsed: Partial<FailureResponse> = {};
    try {
      parsed = JSON.parse(text) as Partial<FailureResponse>;
    } catch {
      // A proxy's HTML error page or a truncated body: treat as a crash below.
    }
    if (response.status === 404) throw new SessionGone();
    const code = parsed.failure?.code ?? (response.status === 429 ? "ENGINE_CONCURRENCY_LIMIT" : "ENGINE_CRASHED");
    throw new ProviderFailure(code as ProviderFailure["code"], parsed.failure?.message, parsed.failure?.retryAfterSeconds);
  }

  async openSession(providerCode: string, credential: LoginCredential): Promise<string> {
    const request: OpenSessionRequest = { providerCode, credential };
    return (await this.call<OpenSessionResponse>("POST", scraperPaths.sessions, this.bounds.openSessionMs, request)).sessionId;
  }

  async targets(sessionId: string, schema: string): Promise<Target[]> {
    const request: TargetsRequest = { schema };
    return (await this.call<TargetsResponse>("POST", scraperPaths.targets(sessionId), this.bounds.targetsMs, request)).targets;
  }

  async collect(sessionId: string, unit: TaskUnit): Promise<RawRecord[]> {
    const request: CollectRequest = { unit };
    return (await this.call<CollectResponse>("POST", scraperPaths.collect(sessionId), this.bounds.collectMs, request)).records;
  }

  async closeSession(sessionId: string): Promise<void> {
    try {
      await this.call("DELETE", scraperPaths.session(sessionId), this.bounds.closeMs);
    } catch {
      // Closing is best effort: the scraper closes idle sessions itself.
    }
  }
}
