import { type LoginCredential, ProviderFailure, type RawRecord, type Target, type TaskUnit } from "../../collectors/adapter";
import {
  type CollectRequest,
  type CollectResponse,
  type FailureResponse,
  type OpenSessionRequest,
  type OpenSessionResponse,
  scraperPaths,
  type TargetsRequest,
  type TargetsResponse,
} from "../../collectors/scraper-protocol";
import { type ScraperPort, SessionGone } from "./scraper-port";

/** The scraper container's HTTP protocol (docs/scraper-runtime.md). */
export class ContainerScraper implements ScraperPort {
  constructor(private readonly baseUrl: string) {}

  private async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    let response: Response;
    try {
      response = await fetch(`${this.baseUrl}${path}`, {
        method,
        headers: body === undefined ? {} : { "Content-Type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch {
      // Connection refused or reset: the scraper process is down or restarting.
      throw new ProviderFailure("ENGINE_CRASHED", "scraper unreachable");
    }
    const text = await response.text();
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

  async openSession(providerCode: string, baseUrl: string, credential: LoginCredential): Promise<string> {
    const request: OpenSessionRequest = { providerCode, baseUrl, credential };
    return (await this.call<OpenSessionResponse>("POST", scraperPaths.sessions, request)).sessionId;
  }

  async targets(sessionId: string, schema: string): Promise<Target[]> {
    const request: TargetsRequest = { schema };
    return (await this.call<TargetsResponse>("POST", scraperPaths.targets(sessionId), request)).targets;
  }

  async collect(sessionId: string, unit: TaskUnit): Promise<RawRecord[]> {
    const request: CollectRequest = { unit };
    return (await this.call<CollectResponse>("POST", scraperPaths.collect(sessionId), request)).records;
  }

  async closeSession(sessionId: string): Promise<void> {
    try {
      await this.call("DELETE", scraperPaths.session(sessionId));
    } catch {
      // Closing is best effort: the scraper closes idle sessions itself.
    }
  }
}
