import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { institutionHttp } from "./institution-http";
import { egress } from "../../../scraper-container/egress";

const servers: Server[] = [];

async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<{ url: string; server: Server }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  servers.push(server);
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, server };
}

let portal: string;
let teet: string;

beforeAll(async () => {
  // Stand-ins for two real hosts: the portal sets cookies as a real one would, both echo the Cookie header they get.
  portal = (
    await serve((req, res) => {
      if (req.url === "/login") {
        res.writeHead(200, { "Set-Cookie": ["dom=1; Domain=.hometax.go.kr; Path=/", "hostonly=2; Path=/", "gone=3; Max-Age=0; Path=/", "foreign=4; Domain=.example.com; Path=/"] });
        return res.end();
      }
      if (req.url === "/hop") {
        res.writeHead(302, { Location: "https://teet.hometax.go.kr/landed" });
        return res.end();
      }
      res.end(req.headers.cookie ?? "");
    })
  ).url;
  teet = (await serve((req, res) => res.end(`${req.url} ${req.headers.cookie ?? ""}`))).url;
});
afterAll(async () => {
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r).closeAllConnections())));
});

const client = (extra: Partial<Parameters<typeof institutionHttp>[0]> = {}) =>
  institutionHttp({ hosts: ["hometax.go.kr", "teet.hometax.go.kr"], standIns: { "hometax.go.kr": portal, "teet.hometax.go.kr": teet }, ...extra });

describe("institution HTTP of protocol adapters", () => {
  it("keeps cookies per real host as a browser does, whatever address stands in for it", async () => {
    const http = client();
    await http.fetch("https://hometax.go.kr/login");
    expect((await http.fetch("https://hometax.go.kr/echo")).text).toBe("dom=1; hostonly=2");
    expect((await http.fetch("https://teet.hometax.go.kr/echo")).text).toBe("/echo dom=1");
  });

  it("follows a redirect to another real host with that host's cookies", async () => {
    const http = client();
    await http.fetch("https://hometax.go.kr/login");
    const answer = await http.fetch("https://hometax.go.kr/hop", { method: "POST", body: "x=1" });
    expect(answer).toMatchObject({ url: "https://teet.hometax.go.kr/landed", status: 200, text: "/landed dom=1" });
  });

  it("refuses a host the adapter did not declare, plain http, and a declared host without a stand-in, before a request is made", async () => {
    const made: string[] = [];
    const transport = ((input: string) => {
      made.push(input);
      return fetch(input);
    }) as typeof fetch;
    const http = client({ transport, standIns: { "hometax.go.kr": portal } });
    for (const url of ["https://evil.example.com/", "http://hometax.go.kr/", "https://teet.hometax.go.kr/"]) {
      await expect(http.fetch(url), url).rejects.toMatchObject({ code: "PROVIDER_ERROR" });
    }
    expect(made).toEqual([]);
  });

  it("answers TIMEOUT for an institution that does not answer in time", async () => {
    const { url } = await serve(() => undefined);
    const http = institutionHttp({ hosts: ["hometax.go.kr"], standIns: { "hometax.go.kr": url }, timeoutMs: 200 });
    await expect(http.fetch("https://hometax.go.kr/")).rejects.toMatchObject({ code: "TIMEOUT" });
  });

  it("sends a configured provider's traffic through the egress proxy, and other providers' straight out", async () => {
    const seen: string[] = [];
    const { url: proxyUrl, server: proxy } = await serve((req, res) => {
      seen.push(`${req.method} ${req.url}`);
      fetch(req.url!, { method: req.method }).then(async (answer) => res.end(await answer.text()), () => res.writeHead(502).end());
    });
    proxy.on("connect", (req: IncomingMessage, socket) => {
      seen.push(`CONNECT ${req.url}`);
      const [host, port] = req.url!.split(":");
      const upstream = connect(Number(port), host!, () => {
        socket.write("HTTP/1.1 200 Connection Established\r\n\r\n");
        upstream.pipe(socket);
        socket.pipe(upstream);
      });
      upstream.on("error", () => socket.destroy());
    });
    const egressFor = egress({ proxyUrl, providers: ["hometax"] });
    const viaProxy = client({ transport: egressFor("hometax") });
    expect((await viaProxy.fetch("https://teet.hometax.go.kr/through")).text).toBe("/through ");
    expect(seen).toHaveLength(1);
    expect(seen[0]).toContain(new URL(teet).host);
    const direct = client({ transport: egressFor("sandbox.bank") });
    await direct.fetch("https://teet.hometax.go.kr/direct");
    expect(seen).toHaveLength(1);
  });
});
