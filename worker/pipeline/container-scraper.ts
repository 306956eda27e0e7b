import { type LoginCredential, ProviderFailure, type RawRecord, type Target, type TaskUnit } from "../providers/adapter";
import { type ScraperPort, SessionGone } from "./scraper-port";

interface FailureBody {
  failure?: { code?: string; message?: string; retryAfterSeconds?: number };
}

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
    let parsed: FailureBody = {};
    try {
      parsed = JSON.parse(text) as FailureBody;
    } catch {
      // A proxy's HTML error page or a truncated body: treat as a crash below.
    }
    if (response.status === 404) throw new SessionGone();
    const code = parsed.failure?.code ?? (response.status === 429 ? "ENGINE_CONCURRENCY_LIMIT" : "ENGINE_CRASHED");
    throw new ProviderFailure(code as ProviderFailure["code"], parsed.failure?.message, parsed.failure?.retryAfterSeconds);
  }

  async openSession(providerCode: string, baseUrl: string, credential: LoginCredential): Promise<string> {
    return (await this.call<{ sessionId: string }>("POST", "/sessions", { providerCode, baseUrl, credential })).sessionId;
  }

  async targets(sessionId: string, schema: string): Promise<Target[]> {
    return (await this.call<{ targets: Target[] }>("POST", `/sessions/${encodeURIComponent(sessionId)}/targets`, { schema })).targets;
  }

  async collect(sessionId: string, unit: TaskUnit): Promise<RawRecord[]> {
    return (await this.call<{ records: RawRecord[] }>("POST", `/sessions/${encodeURIComponent(sessionId)}/collect`, { unit })).records;
  }

  async closeSession(sessionId: string): Promise<void> {
    try {
      await this.call("DELETE", `/sessions/${encodeURIComponent(sessionId)}`);
    } catch {
      // Closing is best effort: the scraper closes idle sessions itself.
    }
  }
}
