import { createServer } from "node:net";
import type { BrowserContextOptions } from "puppeteer-core";

/**
 * Keeps browser contexts on their institution's origins. Chromium resolves a
 * proxy for every request a context makes, whatever made it (page, frame,
 * popup, worker, WebSocket, beacon): the allowed origins go direct, anything
 * else goes to the fence's "proxy", which hangs up. Page-level request
 * interception is not enough: a popup's first request and WebSockets get past it.
 */
export interface SiteFence {
  /** Browser context options that allow `origins` only. */
  contextOptions(origins: readonly string[]): BrowserContextOptions;
  /** Connections refused so far: requests pages made outside their site. */
  refused(): number;
  close(): Promise<void>;
}

export async function startSiteFence(): Promise<SiteFence> {
  let refused = 0;
  const server = createServer((socket) => {
    refused++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const proxyServer = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return {
    contextOptions: (origins) => ({
      proxyServer,
      // `<-loopback>` drops Chromium's implicit direct route to localhost, which would let a page reach this host's other services.
      proxyBypassList: ["<-loopback>", ...origins.map(bypassRule)],
    }),
    refused: () => refused,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** An origin as a bypass rule with its port spelled out, so the rule matches that port only. */
function bypassRule(origin: string): string {
  const url = new URL(origin);
  return `${url.protocol}//${url.hostname}:${url.port || (url.protocol === "https:" ? 443 : 80)}`;
}
