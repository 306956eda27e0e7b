import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { pathToFileURL } from "node:url";
import type { AdapterCredential, TaskUnit } from "../contracts/task-unit";
import { degradedCounts } from "../collectors/kit/degraded-paths";
import { type InstitutionBaseUrls, parseInstitutionBaseUrls } from "../collectors/kit/protocol/stand-ins";
import { institutionFor } from "../collectors/registry";
import { redactText } from "../collectors/kit/redaction";
import { type AwaitingHolderResponse, type CollectRequest, type CollectResponse, type OpenSessionResponse, scraperPaths, type TargetsRequest, type TargetsResponse } from "../contracts/scraper-protocol";
import { BrowserPool, DEFAULT_CHROMIUM_PATH } from "./browser-pool";
import { type EgressOptions, egress } from "./egress";
import { failureAnswer } from "./failure-answer";
import { HttpFailure, readJsonBody, send, sendFailure } from "./http-io";
import { AwaitingHolder, logIn } from "./log-in";
import { SessionStore } from "./sessions";
import { checkSharedSecret, isAuthorized } from "./shared-secret";
import { startSiteFence } from "./site-fence";
import { scraperTracing } from "./tracing";
import { type SftpOptions, uploadSftp } from "./sftp-upload";
import { type OpenBankingKeys, randomProcessTag, useProcessTag } from "../collectors/openbanking";
import { openBankingKeysFromEnv, openBankingTokens } from "./open-banking";

/**
 * Sessions (and logins in flight) one instance holds when MAX_SESSIONS is unset, from `npm run bench:sessions`
 * (docs/capacity.md, "Sessions per instance", stop 68): with bench:cost's 12-month job at 300 ms a page, 8 sessions
 * asked 0.135 cores a session in their busiest 5 s and 12 asked 0.116, so a standard-3's 2 vCPU holds 10 to 12 within
 * 70% of them; 10, the lower. Memory would allow far more (about 41 MB of PSS a session). Since Containers bill CPU by
 * active use and memory as provisioned, an instance of more vCPU spreads its memory over more sessions.
 */
export const DEFAULT_MAX_SESSIONS = 10;

export interface ScraperOptions {
  port: number;
  /** 127.0.0.1 locally; 0.0.0.0 inside a container. */
  host?: string;
  /** The worker's credential for every request but GET /healthz (SCRAPER_SHARED_SECRET). */
  sharedSecret: string;
  /** Where the sandbox institutions' sites are (SANDBOX_BASE_URL); the provider table resolves site paths against it. */
  sandboxBaseUrl: string;
  chromiumPath?: string;
  maxSessions?: number;
  sessionIdleMs?: number;
  /** Per-page (or, for the protocol kind, per-request) wait before an adapter gives TIMEOUT. */
  pageTimeoutMs?: number;
  /** Stand-ins for real institutions' hosts (INSTITUTION_BASE_URLS, parsed). */
  institutionBaseUrls?: InstitutionBaseUrls;
  /** Hometax's pace against its stand-ins, ms (HOMETAX_PACE_MS; collectors/registry.ts): the test and local stacks only. */
  hometaxPaceMs?: number;
  egress?: EgressOptions;
  /** An OTLP/HTTP collector's base URL for the scraper's spans (OTEL_EXPORTER_OTLP_ENDPOINT); unset, none are sent. */
  otlpEndpoint?: string;
  /** The 이용기관's keys Open Banking consents are exchanged and refreshed with (docs/deploying.md); unset, none are. */
  openBankingKeys?: OpenBankingKeys;
  /**
   * Provider code to the deployment's own key for it (docs/institutions/nts-business-status.md §6): handed to the
   * adapter (`ctx.deploymentKey`) only when the worker asks for the deployment's key; unset, such a login fails.
   */
  deploymentKeys?: Readonly<Record<string, string>>;
  /**
   * This process's tag in every Open Banking `bank_tran_id` (collectors/openbanking/bank-tran-id.ts, 0..46655), which no
   * other live scraper process holds (SCRAPER_PROCESS_TAG: a container instance's or runner slot's, process-tag.ts);
   * unset, a random one.
   */
  processTag?: number;
  /** Route deliveries over SFTP: public servers only, this machine's loopback too with SFTP_ALLOW_LOCAL_HOSTS=1 (the local stack and tests). */
  sftp?: SftpOptions;
}

export interface ScraperServer {
  url: string;
  close(): Promise<void>;
}

/**
 * The scraper service (docs/scraper-runtime.md): logs in with an adapter (a browser adapter in a fresh browser
 * context, a protocol adapter with a cookie jar of its own), then runs that session's units one at a time.
 * It answers only the worker, and each session reaches only its own institution.
 */
export async function startScraper(options: ScraperOptions): Promise<ScraperServer> {
  const sharedSecret = checkSharedSecret(options.sharedSecret);
  useProcessTag(options.processTag ?? randomProcessTag());
  if (!URL.canParse(options.sandboxBaseUrl)) throw new Error("SANDBOX_BASE_URL must be the absolute URL of the sandbox institutions' sites");
  const institutionBaseUrls = options.institutionBaseUrls ?? {};
  const egressFor = egress(options.egress ?? {});
  const fence = await startSiteFence();
  const pool = new BrowserPool(options.chromiumPath ?? DEFAULT_CHROMIUM_PATH, fence);
  const sessions = new SessionStore(options.sessionIdleMs ?? 300_000);
  const tracing = scraperTracing(options.otlpEndpoint);
  const maxSessions = options.maxSessions ?? DEFAULT_MAX_SESSIONS;
  let logins = 0;
  // Logins still running hold their slot: the cap counts them with the open sessions, or a burst would pass it.
  let loginsInFlight = 0;

  async function openSession(input: Record<string, unknown>): Promise<OpenSessionResponse> {
    const institution = institutionFor(String(input.providerCode), { sandboxBaseUrl: options.sandboxBaseUrl, institutionBaseUrls, hometaxPaceMs: options.hometaxPaceMs });
    if (!institution || !input.credential) throw new HttpFailure(400, "PROVIDER_ERROR");
    if (sessions.size + loginsInFlight >= maxSessions) throw new HttpFailure(429, "ENGINE_CONCURRENCY_LIMIT", 10);
    loginsInFlight++;
    logins++;
    try {
      const businessNumber = typeof input.businessNumber === "string" ? input.businessNumber : undefined;
      const credential = input.credential as AdapterCredential;
      const deploymentKey = credential.authMethod === "DEPLOYMENT_KEY" ? options.deploymentKeys?.[institution.adapter.providerCode] : undefined;
      const ctx = { baseUrl: institution.baseUrl, timeoutMs: options.pageTimeoutMs, businessNumber, deploymentKey };
      const loggedIn = await logIn(institution, credential, ctx, { pool, egressFor });
      return { sessionId: sessions.add({ loggedIn }).id, ...(loggedIn.awaiting ? { awaiting: loggedIn.awaiting } : {}) };
    } finally {
      loginsInFlight--;
    }
  }

  async function stats() {
    return { logins, loginsInFlight, activeSessions: sessions.size, browserContexts: await pool.contextCount(), refusedRequests: fence.refused(), degradedPaths: degradedCounts() };
  }

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://scraper.local");
    const parts = url.pathname.split("/").filter(Boolean);
    if (req.method === "GET" && url.pathname === "/healthz") return send(res, 200, { ok: true });
    if (!isAuthorized(req.headers.authorization, sharedSecret)) throw new HttpFailure(401, "INTERNAL_ERROR");
    if (req.method === "GET" && url.pathname === "/stats") return send(res, 200, await stats());
    if (req.method === "POST" && url.pathname === scraperPaths.sftpUploads) return send(res, 200, await uploadSftp(req, options.sftp));
    if (req.method === "POST" && url.pathname === scraperPaths.openBankingTokens) {
      const deps = { keys: options.openBankingKeys, standIns: institutionBaseUrls.openbanking, transport: egressFor("openbanking"), timeoutMs: options.pageTimeoutMs };
      const input = await readJsonBody(req);
      return send(res, 200, await tracing.inSpan("scraper open-banking token", req.headers, { grant: String(input.grant) }, () => openBankingTokens(input, deps)));
    }
    if (req.method === "POST" && url.pathname === "/sessions") {
      const input = await readJsonBody(req);
      return send(res, 201, await tracing.inSpan("scraper login", req.headers, { "provider.code": String(input.providerCode) }, () => openSession(input)));
    }
    if (parts[0] !== "sessions" || !parts[1]) throw new HttpFailure(404, "SESSION_EXPIRED");
    if (req.method === "DELETE" && parts.length === 2) {
      await sessions.close(parts[1]);
      return send(res, 204);
    }
    const session = sessions.get(parts[1]);
    if (!session) throw new HttpFailure(404, "SESSION_EXPIRED");
    const input = await readJsonBody(req);
    if (req.method === "POST" && parts[2] === "ready") {
      await sessions.run(session, () => session.loggedIn.ready());
      return send(res, 200, { ready: true });
    }
    if (req.method === "POST" && parts[2] === "targets") {
      const { schema } = input as Partial<TargetsRequest>;
      const targets = () => sessions.run(session, () => session.loggedIn.discoverTargets(String(schema)));
      const answer: TargetsResponse = { targets: await tracing.inSpan("scraper targets", req.headers, { schema: String(schema) }, targets) };
      return send(res, 200, answer);
    }
    if (req.method === "POST" && parts[2] === "collect") {
      const { unit } = input as Partial<CollectRequest>;
      const collect = () => sessions.run(session, () => session.loggedIn.collect(unit as TaskUnit));
      const answer: CollectResponse = { records: await tracing.inSpan("scraper collect", req.headers, { schema: String(unit?.schema), "unit.index": String(unit?.unitIndex) }, collect) };
      return send(res, 200, answer);
    }
    throw new HttpFailure(404, "SESSION_EXPIRED");
  }

  const server = createServer((req, res) => {
    route(req, res).catch((err: unknown) => {
      if (err instanceof AwaitingHolder) return send(res, 202, { awaiting: err.approval } satisfies AwaitingHolderResponse);
      const answer = failureAnswer(err);
      // One JSON line, naming the trace: the job's id (worker/platform/observability/trace-context.ts), so a job's lines are found on both sides.
      // Adapters' errors leave them redacted (collectors/kit/page-report.ts); whatever else reaches here is redacted by the common rules, as it may quote a page.
      if (answer.logged) console.error(JSON.stringify({ level: "error", event: "scraper-error", traceId: tracing.traceIdOf(req.headers), error: redactText(String(err)), stack: err instanceof Error && err.stack ? redactText(err.stack) : undefined }));
      sendFailure(res, answer.status, answer.code, answer.retryAfterSeconds, answer.detail, answer.report);
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port, options.host ?? "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await sessions.closeAll();
      await pool.close();
      await fence.close();
      await tracing.shutdown();
    },
  };
}

/** The service's options from its environment (the container's, a runner's, the local stack's processes'). */
export function scraperOptionsFromEnv(env: NodeJS.ProcessEnv = process.env): ScraperOptions {
  return {
    port: Number(env.SCRAPER_PORT ?? 8791),
    host: env.SCRAPER_HOST,
    sharedSecret: env.SCRAPER_SHARED_SECRET ?? "",
    sandboxBaseUrl: env.SANDBOX_BASE_URL ?? "",
    chromiumPath: env.CHROMIUM_PATH || undefined,
    maxSessions: env.MAX_SESSIONS ? Number(env.MAX_SESSIONS) : undefined,
    sessionIdleMs: env.SESSION_IDLE_MS ? Number(env.SESSION_IDLE_MS) : undefined,
    pageTimeoutMs: env.PAGE_TIMEOUT_MS ? Number(env.PAGE_TIMEOUT_MS) : undefined,
    hometaxPaceMs: /^\d+$/.test(env.HOMETAX_PACE_MS ?? "") ? Number(env.HOMETAX_PACE_MS) : undefined,
    institutionBaseUrls: parseInstitutionBaseUrls(env.INSTITUTION_BASE_URLS),
    egress: { proxyUrl: env.EGRESS_PROXY_URL || undefined, providers: env.EGRESS_PROVIDERS?.split(",").map((p) => p.trim()).filter(Boolean) },
    otlpEndpoint: env.OTEL_EXPORTER_OTLP_ENDPOINT || undefined,
    sftp: { allowLocalHosts: env.SFTP_ALLOW_LOCAL_HOSTS === "1" },
    openBankingKeys: openBankingKeysFromEnv(env),
    processTag: env.SCRAPER_PROCESS_TAG ? Number(env.SCRAPER_PROCESS_TAG) : undefined,
    // data.go.kr's service key for the NTS business-status API (its "Decoding" form, or the "Encoding" one as issued).
    deploymentKeys: env.NTS_SERVICE_KEY?.trim() ? { "nts.business-status": env.NTS_SERVICE_KEY.trim() } : {},
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const scraper = await startScraper(scraperOptionsFromEnv());
  console.log(`scraper on ${scraper.url}`);
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => void scraper.close().then(() => process.exit(0)));
}
