import { DurableObject } from "cloudflare:workers";
import type { RunnerRequest, RunnerResponse } from "../../../contracts/scraper-protocol";
import type { ScraperInstances } from "./instances";
import { numberOr } from "../../platform/configuration";
import { allProviders, collectBoundMs } from "../catalog/providers";

/** Whether a runner holds the slot's socket: the hub's own path, apart from the scraper protocol's. */
export const RUNNER_STATUS_PATH = "/__runner/status";

/**
 * Longer than any scraper call's own bound (domain/scraper/container-client.ts, and a paced provider's unit:
 * catalog/providers.ts collectBoundMs): those decide; this only frees a lost call.
 */
const CALL_LIMIT_MS = Math.max(180_000, ...allProviders().map((p) => (collectBoundMs(p) ?? 0) + 60_000));

/**
 * One runner slot (`runner-<n>`): a scraper that runs where the institutions accept it (a host in Korea) and keeps
 * a WebSocket open to the worker, so it needs no inbound address. Calls of the scraper protocol arrive here as
 * requests and travel over that socket; the runner answers each by its id. A runner that reconnects replaces the
 * old socket; with none connected, a call answers 503 like an unreachable scraper.
 */
export class RunnerHub extends DurableObject<Pick<Env, never>> {
  /** Calls awaiting an answer, each with the socket it went out on: only that socket's close fails it. */
  private readonly pending = new Map<string, { socket: WebSocket; answer: (response: Response) => void }>();

  override async fetch(request: Request): Promise<Response> {
    if (request.headers.get("Upgrade") === "websocket") return this.acceptRunner();
    // A replaced socket may linger while it closes: calls go to the open one.
    const socket = this.ctx.getWebSockets().find((s) => s.readyState === WebSocket.OPEN);
    if (new URL(request.url).pathname === RUNNER_STATUS_PATH) return Response.json({ connected: Boolean(socket) }, { status: socket ? 200 : 503 });
    if (!socket) return Response.json({ failure: { code: "ENGINE_CRASHED", message: "no runner connected" } }, { status: 503 });
    const url = new URL(request.url);
    const call: RunnerRequest = {
      id: crypto.randomUUID(),
      method: request.method,
      path: url.pathname + url.search,
      headers: Object.fromEntries(request.headers),
      body: request.method === "GET" || request.method === "DELETE" ? null : await request.text(),
    };
    const answered = new Promise<Response>((resolve) => {
      const timer = setTimeout(() => this.settle(call.id, new Response("runner gave no answer", { status: 504 })), CALL_LIMIT_MS);
      this.pending.set(call.id, {
        socket,
        answer: (response) => {
          clearTimeout(timer);
          resolve(response);
        },
      });
    });
    socket.send(JSON.stringify(call));
    return answered;
  }

  private acceptRunner(): Response {
    for (const old of this.ctx.getWebSockets()) old.close(1012, "replaced by a new connection");
    const pair = new WebSocketPair();
    this.ctx.acceptWebSocket(pair[1]);
    return new Response(null, { status: 101, webSocket: pair[0] });
  }

  private settle(id: string, response: Response): void {
    this.pending.get(id)?.answer(response);
    this.pending.delete(id);
  }

  override async webSocketMessage(_socket: WebSocket, message: string | ArrayBuffer): Promise<void> {
    let answer: RunnerResponse;
    try {
      answer = JSON.parse(typeof message === "string" ? message : new TextDecoder().decode(message)) as RunnerResponse;
    } catch {
      return;
    }
    this.settle(answer.id, new Response(answer.body, { status: answer.status, headers: answer.headers }));
  }

  override async webSocketClose(closed: WebSocket): Promise<void> {
    // Calls in flight die with their socket: their callers see an unreachable scraper and log in again elsewhere.
    // A call sent to the runner that replaced it is still answered.
    for (const [id, { socket }] of [...this.pending]) if (socket === closed) this.settle(id, new Response("runner disconnected", { status: 502 }));
  }
}

/** The slot's Durable Object name: stable, so a runner and the calls of its sessions meet in one object. */
export const runnerSlotName = (slot: number) => `runner-${slot}`;

/** Scraper instances that are runners: slot n is the runner connected as `runner-<n>`. */
export function runnerInstances(namespace: DurableObjectNamespace<RunnerHub>, count: number): ScraperInstances {
  return { count, fetch: (instance, path, init) => namespace.getByName(runnerSlotName(instance)).fetch(`http://runner${path}`, init) };
}

/** Runner slot `slot`'s hub, when this deployment has that slot (SCRAPER_RUNNERS of them, from 0), else null. */
export function runnerSlot(env: Pick<Env, "RUNNER_HUB" | "SCRAPER_RUNNERS">, slot: number): DurableObjectStub<RunnerHub> | null {
  if (!env.RUNNER_HUB || !Number.isInteger(slot) || slot < 0 || slot >= numberOr(env.SCRAPER_RUNNERS, 0)) return null;
  return env.RUNNER_HUB.getByName(runnerSlotName(slot));
}
