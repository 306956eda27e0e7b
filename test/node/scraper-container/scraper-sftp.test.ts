import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { base64UrlEncode } from "../../../contracts/base64url";
import { scraperAuthorization, scraperPaths, SFTP_UPLOAD_HEADER, type SftpUpload } from "../../../contracts/scraper-protocol";
import { type ScraperServer, startScraper } from "../../../scraper-container/server";
import { freePort } from "../../../scripts/free-port";
import { hostKeyFingerprint, newHostKey, startSftpServer } from "../../support/sftp-server";

/**
 * The scraper's SFTP uploads (route deliveries, scraper-container/sftp-upload.ts) reach public servers only, whatever
 * the worker sends it: the name is checked, every address it resolves to is checked, and the connection goes to the
 * address checked. DNS is stood in for by the scrapers' `resolve` option (names no real resolver knows), so the test
 * decides what a name answers, as an attacker's DNS would.
 */
const SECRET = randomBytes(32).toString("base64url");
const PASSWORD = randomBytes(12).toString("base64url");
const HOST_KEY = newHostKey();
const DNS: Record<string, string[]> = {
  "files.partner.example": ["127.0.0.1"],
  "mixed.partner.example": ["8.8.8.8", "10.1.2.3"],
  "metadata.partner.example": ["169.254.169.254"],
  "mapped.partner.example": ["::ffff:127.0.0.1"],
  "inward.partner.example": ["fd00::1"],
};
const resolve = async (host: string) => {
  if (DNS[host]) return DNS[host];
  // Literals resolve to themselves, as getaddrinfo answers them.
  if (/^[\d.]+$/.test(host) || host.includes(":")) return [host];
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: "ENOTFOUND" });
};

let production: ScraperServer;
let local: ScraperServer;
let sftp: Awaited<ReturnType<typeof startSftpServer>>;
let sftpPort: number;
let filesUrl: string;
/** An internal service on this machine: counts who reaches it, and answers with words no log may repeat. */
let internal: Server;
let internalPort: number;
let reached = 0;

beforeAll(async () => {
  [sftpPort, internalPort] = [await freePort(), await freePort()];
  const httpPort = await freePort();
  filesUrl = `http://127.0.0.1:${httpPort}/files`;
  sftp = await startSftpServer({ port: sftpPort, httpPort, hostKey: HOST_KEY, username: "partner", password: PASSWORD });
  internal = createServer((socket) => {
    reached++;
    socket.resume();
    socket.end("HTTP/1.1 400 Bad Request\r\n\r\ninternal-admin-page: db password hunter2\r\n");
  });
  await new Promise<void>((ready) => internal.listen(internalPort, "127.0.0.1", ready));
  const common = { port: 0, sharedSecret: SECRET, sandboxBaseUrl: "http://127.0.0.1:9" };
  production = await startScraper({ ...common, sftp: { resolve } });
  local = await startScraper({ ...common, sftp: { resolve, allowLocalHosts: true } });
});
afterAll(async () => {
  await production?.close();
  await local?.close();
  await sftp?.close();
  await new Promise((done) => internal?.close(done));
});

async function upload(scraper: ScraperServer, to: Partial<SftpUpload>, body = "a,b\n1,2\n") {
  const request: SftpUpload = { host: "127.0.0.1", port: sftpPort, username: "partner", secret: PASSWORD, hostKeySha256: hostKeyFingerprint(HOST_KEY), directory: "incoming", name: "results.csv", ...to };
  const response = await fetch(`${scraper.url}${scraperPaths.sftpUploads}`, {
    method: "POST",
    headers: { Authorization: scraperAuthorization(SECRET), [SFTP_UPLOAD_HEADER]: base64UrlEncode(new TextEncoder().encode(JSON.stringify(request))), "Content-Type": "application/octet-stream" },
    body,
  });
  return { status: response.status, body: (await response.json()) as { bytes?: number; failure?: { code: string; detail?: string } } };
}

describe("SFTP uploads from the scraper", () => {
  it.each([
    ["loopback", "127.0.0.1"],
    ["a private address", "10.1.2.3"],
    ["cloud metadata", "169.254.169.254"],
    ["IPv6 loopback", "::1"],
    ["a unique local IPv6 address", "fd00::1"],
    ["localhost", "localhost"],
    ["an internal name", "metadata.google.internal"],
    ["a public name that resolves to loopback", "files.partner.example"],
    ["a public name with one private address among public ones", "mixed.partner.example"],
    ["a public name that resolves to cloud metadata", "metadata.partner.example"],
    ["a public name that resolves to IPv4-mapped loopback", "mapped.partner.example"],
    ["a public name that resolves to a unique local IPv6 address", "inward.partner.example"],
  ])("refuse %s before connecting, naming the rule and nothing the network said", async (_name, host) => {
    const before = reached;
    const res = await upload(production, { host, port: internalPort });
    expect(res.status).toBe(400);
    expect(res.body.failure?.detail).toMatch(/^refused: SFTP 서버\(host\)로 보낼 수 없습니다\. .*[가-힣]/);
    expect(reached).toBe(before);
  });

  it("connect to the address they checked, not to the name again, and land the file where the local stack allows this machine", async () => {
    // No real resolver knows this name: the file lands only if the connection goes to the address checked.
    const res = await upload(local, { host: "files.partner.example", directory: `incoming/${randomBytes(4).toString("hex")}` });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.bytes).toBe(8);
    const direct = await upload(local, { host: "127.0.0.1", directory: "direct" });
    expect(direct.status).toBe(200);
    expect(await (await fetch(`${filesUrl}/direct/results.csv`)).text()).toBe("a,b\n1,2\n");
    // The allowance is loopback only: other private addresses stay refused.
    for (const host of ["10.1.2.3", "mixed.partner.example", "metadata.partner.example"]) expect((await upload(local, { host })).body.failure?.detail, host).toMatch(/^refused: /);
  });

  it("say what kind of failure a connection met, never the server's or the network's own words", async () => {
    const wrongKey = await upload(local, { hostKeySha256: "A".repeat(43) });
    expect(wrongKey.body.failure?.detail).toBe("SFTP: the server's host key is not the one named (hostKeySha256)");
    const wrongPassword = await upload(local, { secret: "not-the-password" });
    expect(wrongPassword.body.failure?.detail).toBe("SFTP: the server refused the username and secret");
    const notSsh = await upload(local, { port: internalPort });
    expect(notSsh.status).toBe(502);
    expect(notSsh.body.failure?.detail).toMatch(/^SFTP: /);
    expect(JSON.stringify(notSsh.body)).not.toMatch(/hunter2|internal-admin|127\.0\.0\.1/);
    const closed = await upload(local, { port: await freePort() });
    expect(closed.body.failure?.detail).toBe("SFTP: the server refused the connection");
    const unknown = await upload(local, { host: "nowhere.partner.example" });
    expect(unknown.body.failure?.detail).toBe("SFTP: the server's name does not resolve");
  });
});
