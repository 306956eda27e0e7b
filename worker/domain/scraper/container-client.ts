import { type AdapterCredential, ProviderFailure, type RawRecord, type Target, type TaskUnit } from "../../../collectors/adapter";
import {
  type CollectRequest,
  type CollectResponse,
  type AwaitingHolderResponse,
  type FailureResponse,
  type OpenSessionRequest,
  type OpenSessionResponse,
  type OpenBankingTokenRequest,
  type OpenBankingTokenResponse,
  scraperAuthorization,
  scraperPaths,
  SFTP_UPLOAD_HEADER,
  type SftpUpload,
  type SftpUploadResponse,
  type TargetsRequest,
  type TargetsResponse,
} from "../../../contracts/scraper-protocol";
import { base64UrlEncode } from "../../../contracts/base64url";
import { processInstances, type ScraperInstances } from "./instances";
import { AwaitingHolder, type OpenedSession, type ScraperPort, SessionGone } from "./port";
import { ReportedFailure } from "../../../collectors/kit/page-report";
import { currentSpan, withSpan } from "../../platform/observability/telemetry";
import { formatTraceparent } from "../../platform/observability/trace-context";

/** An SFTP upload may carry a large file to a slow server: bounded, but by minutes. */
const SFTP_UPLOAD_MS = 10 * 60_000;

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
  /** How long a login waits for a session slot while every instance is at its cap (the lease is renewed meanwhile). */
  loginWaitMs: number;
}

export const DEFAULT_CALL_BOUNDS: ScraperCallBounds = { openSessionMs: 90_000, targetsMs: 60_000, collectMs: 120_000, closeMs: 10_000, loginWaitMs: 120_000 };

/** Between looks for a free session slot: short next to a job, with jitter so waiting logins do not arrive together. */
const SLOT_POLL_MS = 500;

/** How a session id names the instance that holds it: `<instance>~<the scraper's own id>`. */
const INSTANCE_SEPARATOR = "~";

function pinned(sessionId: string, count: number): { instance: number; id: string } {
  const at = sessionId.indexOf(INSTANCE_SEPARATOR);
  // An id without an instance (a single scraper's own) belongs to the first.
  if (at < 0) return { instance: 0, id: sessionId };
  const instance = Number(sessionId.slice(0, at));
  // An instance no longer configured (fewer instances since the login) holds no session any more.
  if (!Number.isInteger(instance) || instance < 0 || instance >= count) throw new SessionGone();
  return { instance, id: sessionId.slice(at + 1) };
}

/**
 * The scraper container's HTTP protocol (docs/scraper-runtime.md), over
 * either transport (scraper-instances.ts): a login goes to one instance and
 * the session id it returns names that instance, so every later call of the
 * session reaches the browser that logged in.
 */
export class ContainerScraper implements ScraperPort {
  private readonly instances: ScraperInstances;

  constructor(
    instances: ScraperInstances | string,
    private readonly sharedSecret: string,
    private readonly bounds: ScraperCallBounds = DEFAULT_CALL_BOUNDS,
    private readonly random: () => number = Math.random,
  ) {
    this.instances = typeof instances === "string" ? processInstances([instances]) : instances;
  }

  /**
   * A call to the scraper, the trace carried on in `traceparent`: a client span of the work it serves when that is
   * exported, else just the work's own span id (nothing would be recorded of a span made per call).
   */
  private call<T>(instance: number, method: string, path: string, timeoutMs: number, body?: unknown): Promise<T> {
    const parent = currentSpan();
    if (!parent?.sampled) return this.send<T>(instance, method, path, timeoutMs, body);
    const route = path.replace(/^\/sessions\/[^/]+/, "/sessions/{id}");
    return withSpan(`scraper ${method} ${route}`, { parent, kind: "client", attributes: { "scraper.instance": instance } }, () => this.send<T>(instance, method, path, timeoutMs, body));
  }

  private async send<T>(instance: number, method: string, path: string, timeoutMs: number, body?: unknown): Promise<T> {
    let response: Response;
    let text: string;
    const span = currentSpan();
    try {
      response = await this.instances.fetch(instance, path, {
        method,
        headers: {
          Authorization: scraperAuthorization(this.sharedSecret),
          ...(span ? { traceparent: formatTraceparent(span) } : {}),
          ...(body === undefined ? {} : { "Content-Type": "application/json" }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
      text = await response.text();
    } catch (err) {
      // Refused, reset, or no whole answer in time: the scraper is down, restarting or stuck.
      const stuck = err instanceof Error && err.name === "TimeoutError";
      throw new ProviderFailure("ENGINE_CRASHED", stuck ? `scraper gave no answer to ${method} ${path} within ${timeoutMs} ms` : "scraper unreachable");
    }
    if (response.status === 202) throw new AwaitingHolder((JSON.parse(text) as AwaitingHolderResponse).awaiting);
    if (response.ok) return (text ? JSON.parse(text) : undefined) as T;
    let parsed: Partial<FailureResponse> = {};
    try {
      parsed = JSON.parse(text) as Partial<FailureResponse>;
    } catch {
      // A proxy's HTML error page or a truncated body: treat as a crash below.
    }
    if (response.status === 404) throw new SessionGone();
    const code = parsed.failure?.code ?? (response.status === 429 ? "ENGINE_CONCURRENCY_LIMIT" : "ENGINE_CRASHED");
    if (parsed.report) throw new ReportedFailure(code as ProviderFailure["code"], parsed.failure?.detail, parsed.report);
    throw new ProviderFailure(code as ProviderFailure["code"], parsed.failure?.detail ?? parsed.failure?.message, parsed.failure?.retryAfterSeconds);
  }

  /**
   * Logs in on a random instance; one at its session cap passes the login on
   * to the next. While every instance is full the login waits for a slot, up
   * to `loginWaitMs`: a full scraper is back-pressure, and spending the job's
   * retry attempts on it would fail jobs that only had to queue.
   */
  async openSession(providerCode: string, credential: AdapterCredential, businessNumber?: string): Promise<OpenedSession> {
    const request: OpenSessionRequest = { providerCode, credential, businessNumber };
    const { count } = this.instances;
    const giveUpAt = Date.now() + this.bounds.loginWaitMs;
    for (;;) {
      const first = Math.floor(this.random() * count);
      for (let tried = 0; tried < count; tried++) {
        const instance = (first + tried) % count;
        try {
          const { sessionId, awaiting } = await this.call<OpenSessionResponse>(instance, "POST", scraperPaths.sessions, this.bounds.openSessionMs, request);
          return { sessionId: `${instance}${INSTANCE_SEPARATOR}${sessionId}`, ...(awaiting ? { awaiting } : {}) };
        } catch (err) {
          const full = err instanceof ProviderFailure && err.code === "ENGINE_CONCURRENCY_LIMIT";
          if (!full || (tried === count - 1 && Date.now() >= giveUpAt)) throw err;
        }
      }
      await new Promise((resolve) => setTimeout(resolve, SLOT_POLL_MS * (0.5 + this.random())));
    }
  }

  async ready(sessionId: string): Promise<void> {
    const { instance, id } = pinned(sessionId, this.instances.count);
    await this.call<unknown>(instance, "POST", scraperPaths.ready(id), this.bounds.targetsMs, {});
  }

  async targets(sessionId: string, schema: string): Promise<Target[]> {
    const { instance, id } = pinned(sessionId, this.instances.count);
    const request: TargetsRequest = { schema };
    return (await this.call<TargetsResponse>(instance, "POST", scraperPaths.targets(id), this.bounds.targetsMs, request)).targets;
  }

  async collect(sessionId: string, unit: TaskUnit, boundMs = 0): Promise<RawRecord[]> {
    const { instance, id } = pinned(sessionId, this.instances.count);
    const request: CollectRequest = { unit };
    return (await this.call<CollectResponse>(instance, "POST", scraperPaths.collect(id), Math.max(this.bounds.collectMs, boundMs), request)).records;
  }

  /**
   * An Open Banking token call (a consent's code exchange, or its refresh) through any instance: the scraper holds the
   * 이용기관's keys and reaches KFTC through its egress; failures are ProviderFailures with the adapter's codes.
   */
  async openBankingToken(request: OpenBankingTokenRequest): Promise<OpenBankingTokenResponse> {
    const instance = Math.floor(this.random() * this.instances.count);
    return this.call<OpenBankingTokenResponse>(instance, "POST", scraperPaths.openBankingTokens, this.bounds.openSessionMs, request);
  }

  /**
   * One file of a route delivery to a partner's SFTP server, through any instance (contracts/scraper-protocol.ts
   * SftpUpload): the body streams through. Answers the bytes written; a refusal or an unreachable server throws.
   */
  async uploadSftp(upload: SftpUpload, body: ReadableStream<Uint8Array>): Promise<number> {
    const instance = Math.floor(this.random() * this.instances.count);
    const response = await this.instances.fetch(instance, scraperPaths.sftpUploads, {
      method: "POST",
      headers: {
        Authorization: scraperAuthorization(this.sharedSecret),
        [SFTP_UPLOAD_HEADER]: base64UrlEncode(new TextEncoder().encode(JSON.stringify(upload))),
        "Content-Type": "application/octet-stream",
      },
      body,
      signal: AbortSignal.timeout(SFTP_UPLOAD_MS),
    });
    const answer = (await response.json()) as Partial<SftpUploadResponse & FailureResponse>;
    if (!response.ok) throw new Error(answer.failure?.detail ?? `scraper answered ${response.status}`);
    return answer.bytes ?? 0;
  }

  async closeSession(sessionId: string): Promise<void> {
    try {
      const { instance, id } = pinned(sessionId, this.instances.count);
      await this.call(instance, "DELETE", scraperPaths.session(id), this.bounds.closeMs);
    } catch {
      // Closing is best effort: the scraper closes idle sessions itself.
    }
  }
}
