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
 *
 * `/s3-stand-in/<name>/<answer>/…` stands in for a destination a delivery route names as its S3 endpoint, recording
 * every request under `<name>` as well: `redirect` answers 307 to `/s3-stand-in/<name>/landed/…` (the same path
 * otherwise), `deny` answers 403 with an S3 error whose message carries an internal page (its text includes `hunter2-internal-page`),
 * `landed` answers 200.
 */
/** What the S3 stand-in's refusal carries besides its code: text no route's log may ever show. */
const S3_STAND_IN_PAGE = "<html><title>internal admin</title><body>db password: hunter2-internal-page</body></html>";

export async function startWebhookReceiver(port = 0): Promise<{ url: string; received: (name: string) => ReceivedWebhook[]; close: () => Promise<void> }> {
  const log = new Map<string, ReceivedWebhook[]>();
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://receiver");
    const [, kind, name] = url.pathname.split("/");
    if (request.method === "GET" && kind === "received" && name) {
      response.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify(log.get(name) ?? []));
      return;
    }
    if (kind === "s3-stand-in" && name) {
      const [, , , answer, ...rest] = url.pathname.split("/");
      request.resume();
      request.on("end", () => {
        const status = answer === "redirect" ? 307 : answer === "deny" ? 403 : 200;
        const headers = Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k, String(v)]));
        log.set(name, [...(log.get(name) ?? []), { at: Date.now(), headers: { ...headers, "x-method": request.method ?? "", "x-path": url.pathname }, body: "", answered: status }]);
        if (status === 307) response.writeHead(307, { Location: `/s3-stand-in/${name}/landed/${rest.join("/")}${url.search}` }).end();
        else if (status === 403) response.writeHead(403, { "Content-Type": "application/xml" }).end(`<?xml version="1.0" encoding="UTF-8"?><Error><Code>AccessDenied</Code><Message>${S3_STAND_IN_PAGE}</Message></Error>`);
        else response.writeHead(200, { ETag: '"stand-in"' }).end();
      });
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
