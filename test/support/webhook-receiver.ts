import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** One request a receiver got, as it arrived. */
export interface ReceivedWebhook {
  at: number;
  headers: Record<string, string>;
  body: string;
  answered: number;
}

/**
 * A real HTTP webhook receiver for tests. `POST /hooks/<name>?fail=<n>`
 * answers 500 to the first n requests for that name and 200 afterwards;
 * `GET /received/<name>` lists what it got under that name. Names keep
 * tests running side by side apart.
 */
export async function startWebhookReceiver(port = 0): Promise<{ url: string; received: (name: string) => ReceivedWebhook[]; close: () => Promise<void> }> {
  const log = new Map<string, ReceivedWebhook[]>();
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://receiver");
    const [, kind, name] = url.pathname.split("/");
    if (request.method === "GET" && kind === "received" && name) {
      response.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify(log.get(name) ?? []));
      return;
    }
    if (request.method !== "POST" || kind !== "hooks" || !name) {
      response.writeHead(404).end();
      return;
    }
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const entries = log.get(name) ?? [];
      const answered = entries.length < Number(url.searchParams.get("fail") ?? 0) ? 500 : 200;
      const headers = Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k, String(v)]));
      entries.push({ at: Date.now(), headers, body: Buffer.concat(chunks).toString("utf8"), answered });
      log.set(name, entries);
      response.writeHead(answered, { "Content-Type": "text/plain" }).end(answered === 200 ? "ok" : "receiver is failing on purpose");
    });
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const { port: bound } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${bound}`,
    received: (name) => log.get(name) ?? [],
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
