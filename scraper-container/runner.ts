import { pathToFileURL } from "node:url";
import { WebSocket } from "undici";
import { type RunnerRequest, type RunnerResponse, scraperAuthorization } from "../contracts/scraper-protocol";
import { leasedProcessTag } from "../collectors/openbanking";
import { type ScraperServer, scraperOptionsFromEnv, startScraper } from "./server";

export interface RunnerOptions {
  /** The worker's base URL (RUNNER_WORKER_URL): the runner connects out to it, and needs no inbound address of its own. */
  workerUrl: string;
  /** Which runner slot this is (RUNNER_SLOT), 0 <= slot < the worker's SCRAPER_RUNNERS. */
  slot: number;
  sharedSecret: string;
  scraper: ScraperServer;
}

export interface Runner {
  close(): void;
}

const RECONNECT_MS = [500, 1000, 2000, 5000];

/**
 * The scraper as a runner: the same service (server.ts) on this host's loopback, reached by the worker through a
 * WebSocket the runner keeps open to its slot (worker/domain/scraper/runner-hub.ts). For a host in Korea that the
 * institutions accept and that takes no inbound connections. Reconnects with backoff when the socket drops.
 */
export function startRunner(options: RunnerOptions): Runner {
  const url = `${options.workerUrl.replace(/^http/, "ws").replace(/\/+$/, "")}/runner/connect/${options.slot}`;
  let socket: WebSocket | null = null;
  let closed = false;
  let failures = 0;

  async function answer(call: RunnerRequest): Promise<RunnerResponse> {
    try {
      const response = await fetch(`${options.scraper.url}${call.path}`, { method: call.method, headers: call.headers, body: call.body ?? undefined });
      return { id: call.id, status: response.status, headers: Object.fromEntries(response.headers), body: await response.text() };
    } catch (err) {
      return { id: call.id, status: 502, headers: {}, body: String(err) };
    }
  }

  function connect(): void {
    if (closed) return;
    const ws = new WebSocket(url, { headers: { Authorization: scraperAuthorization(options.sharedSecret) } });
    socket = ws;
    ws.addEventListener("open", () => {
      failures = 0;
      console.log(`runner connected to ${url}`);
    });
    ws.addEventListener("message", (event) => {
      let call: RunnerRequest;
      try {
        call = JSON.parse(String(event.data)) as RunnerRequest;
      } catch {
        return;
      }
      void answer(call).then((reply) => ws.readyState === WebSocket.OPEN && ws.send(JSON.stringify(reply)));
    });
    ws.addEventListener("close", () => {
      if (closed) return;
      const wait = RECONNECT_MS[Math.min(failures++, RECONNECT_MS.length - 1)]!;
      setTimeout(connect, wait).unref();
    });
    ws.addEventListener("error", () => undefined);
  }

  connect();
  return {
    close() {
      closed = true;
      socket?.close();
    },
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  // The scraper listens on this host's loopback only, on any free port: the runner is its one caller.
  const slot = Number(process.env.RUNNER_SLOT ?? 0);
  // The slot is this runner's alone while its socket lives, so its Open Banking ids never meet another process's.
  const options = { ...scraperOptionsFromEnv(), port: 0, host: "127.0.0.1", processTag: leasedProcessTag("runner", slot) };
  const scraper = await startScraper(options);
  const workerUrl = process.env.RUNNER_WORKER_URL ?? "";
  if (!URL.canParse(workerUrl)) throw new Error("RUNNER_WORKER_URL must be the worker's absolute URL");
  const runner = startRunner({ workerUrl, slot, sharedSecret: options.sharedSecret, scraper });
  console.log(`scraper runner for ${workerUrl} (slot ${process.env.RUNNER_SLOT ?? 0})`);
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => {
      runner.close();
      void scraper.close().then(() => process.exit(0));
    });
  }
}
