import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { pathToFileURL } from "node:url";
import { jobError } from "../collectors/job-failures";
import { ProviderFailure, type LoginCredential, type TaskUnit } from "../collectors/adapter";
import { adapterFor } from "../collectors/registry";
import type { CollectRequest, CollectResponse, FailureResponse, OpenSessionResponse, TargetsRequest, TargetsResponse } from "../collectors/scraper-protocol";
import { BrowserPool } from "./browser-pool";
import { SessionStore } from "./sessions";

export interface ScraperOptions {
  port: number;
  /** 127.0.0.1 locally; 0.0.0.0 inside a container. */
  host?: string;
  chromiumPath?: string;
  maxSessions?: number;
  sessionIdleMs?: number;
  /** Per-page wait before an adapter gives TIMEOUT. */
  pageTimeoutMs?: number;
}

export interface ScraperServer {
  url: string;
  close(): Promise<void>;
}

class HttpFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(code);
  }
}

async function body(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  try {
    const value = JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}");
    if (value && typeof value === "object" && !Array.isArray(value)) return value;
  } catch {
    // fall through
  }
  throw new HttpFailure(400, "PROVIDER_ERROR");
}

function send(res: ServerResponse, status: number, payload?: unknown): void {
  res.writeHead(status, payload === undefined ? {} : { "Content-Type": "application/json" });
  res.end(payload === undefined ? undefined : JSON.stringify(payload));
}

function sendFailure(res: ServerResponse, status: number, code: string, retryAfterSeconds?: number): void {
  const error = jobError(code, retryAfterSeconds);
  const payload: FailureResponse = { failure: { code: error.code, message: error.message, ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }) } };
  send(res, status, payload);
}

/**
 * The scraper service (docs/scraper-runtime.md): logs in with an adapter in
 * a fresh browser context, then runs that session's units one at a time.
 */
export async function startScraper(options: ScraperOptions): Promise<ScraperServer> {
  const pool = new BrowserPool(options.chromiumPath ?? "/usr/bin/chromium");
  const sessions = new SessionStore(options.sessionIdleMs ?? 300_000);
  const maxSessions = options.maxSessions ?? 8;
  let logins = 0;

  async function openSession(input: Record<string, unknown>): Promise<OpenSessionResponse> {
    const adapter = adapterFor(String(input.providerCode));
    if (!adapter || typeof input.baseUrl !== "string" || !input.credential) throw new HttpFailure(400, "PROVIDER_ERROR");
    if (sessions.size >= maxSessions) throw new HttpFailure(429, "ENGINE_CONCURRENCY_LIMIT", 10);
    const { context, page } = await pool.newContext();
    const ctx = { baseUrl: input.baseUrl, timeoutMs: options.pageTimeoutMs };
    logins++;
    try {
      await adapter.login(page, input.credential as LoginCredential, ctx);
    } catch (err) {
      await context.close().catch(() => undefined);
      throw err;
    }
    return { sessionId: sessions.add({ adapter, context, page, ctx }).id };
  }

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://scraper.local");
    const parts = url.pathname.split("/").filter(Boolean);
    if (req.method === "GET" && url.pathname === "/healthz") return send(res, 200, { ok: true });
    if (req.method === "GET" && url.pathname === "/stats") return send(res, 200, { logins, activeSessions: sessions.size });
    if (req.method === "POST" && url.pathname === "/sessions") return send(res, 201, await openSession(await body(req)));
    if (parts[0] !== "sessions" || !parts[1]) throw new HttpFailure(404, "SESSION_EXPIRED");
    if (req.method === "DELETE" && parts.length === 2) {
      await sessions.close(parts[1]);
      return send(res, 204);
    }
    const session = sessions.get(parts[1]);
    if (!session) throw new HttpFailure(404, "SESSION_EXPIRED");
    const input = await body(req);
    if (req.method === "POST" && parts[2] === "targets") {
      const { schema } = input as Partial<TargetsRequest>;
      const answer: TargetsResponse = { targets: await sessions.run(session, () => session.adapter.discoverTargets(session.page, String(schema), session.ctx)) };
      return send(res, 200, answer);
    }
    if (req.method === "POST" && parts[2] === "collect") {
      const { unit } = input as Partial<CollectRequest>;
      const answer: CollectResponse = { records: await sessions.run(session, () => session.adapter.collect(session.page, unit as TaskUnit, session.ctx)) };
      return send(res, 200, answer);
    }
    throw new HttpFailure(404, "SESSION_EXPIRED");
  }

  const server = createServer((req, res) => {
    route(req, res).catch((err: unknown) => {
      if (err instanceof HttpFailure) return sendFailure(res, err.status, err.code, err.retryAfterSeconds);
      if (err instanceof ProviderFailure) return sendFailure(res, 422, err.code, err.retryAfterSeconds);
      // Anything else is the browser or this process failing, not the institution.
      console.error(err);
      sendFailure(res, 500, "ENGINE_CRASHED");
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
    },
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const scraper = await startScraper({
    port: Number(process.env.SCRAPER_PORT ?? 8791),
    host: process.env.SCRAPER_HOST,
    chromiumPath: process.env.CHROMIUM_PATH,
    maxSessions: process.env.MAX_SESSIONS ? Number(process.env.MAX_SESSIONS) : undefined,
    sessionIdleMs: process.env.SESSION_IDLE_MS ? Number(process.env.SESSION_IDLE_MS) : undefined,
    pageTimeoutMs: process.env.PAGE_TIMEOUT_MS ? Number(process.env.PAGE_TIMEOUT_MS) : undefined,
  });
  console.log(`scraper on ${scraper.url}`);
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => void scraper.close().then(() => process.exit(0)));
}
