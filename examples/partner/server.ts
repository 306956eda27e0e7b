import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";
import { SDK_BUNDLES } from "../../sdk/bundles";

/** What the page offers: a sandbox bank login, and Open Banking (a consent on KFTC's page, the replica's locally). */
const OFFERED = ["sandbox.bank", "openbanking", "hometax"] as const;

/**
 * A partner's backend in miniature: it holds the API key, issues a
 * registration session for its own origin and hands only the one-time token
 * to its page, which opens the SDK. Run: SERVICE_URL=… API_KEY=… node --import tsx examples/partner/server.ts
 */
export async function startPartnerExample(options: { port: number; serviceUrl: string; apiKey: string }): Promise<{ url: string; close(): Promise<void> }> {
  const root = import.meta.dirname;
  const page = readFileSync(path.join(root, "index.html"));
  // Built from the SDK's sources at each start, so the README's command works on a fresh clone (no sdk/dist/ yet).
  const built = await build({ ...SDK_BUNDLES.scriptTag, write: false });
  const sdk = Buffer.from(built.outputFiles[0]!.contents);
  const service = (method: string, urlPath: string, body?: unknown) =>
    fetch(`${options.serviceUrl}${urlPath}`, {
      method,
      headers: { Authorization: `Bearer ${options.apiKey}`, ...(body ? { "Content-Type": "application/json" } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
  let origin = "";
  const server = createServer(async (req, res) => {
    const send = (status: number, type: string, body: string | Buffer) => {
      res.writeHead(status, { "Content-Type": type });
      res.end(body);
    };
    try {
      // The page, also as `/?job=ID` when it follows a job.
      if (req.method === "GET" && /^\/(\?|$)/.test(req.url ?? "")) return send(200, "text/html; charset=utf-8", page);
      if (req.method === "GET" && req.url === "/collect-sdk.js") return send(200, "text/javascript", sdk);
      if (req.method === "POST" && req.url === "/api/registration-session") {
        // The page names which institution the person connects: the sandbox bank's login, or Open Banking's consent.
        let asked = "";
        for await (const chunk of req) asked += chunk;
        const providerCode = OFFERED.find((code) => code === (asked ? (JSON.parse(asked) as { providerCode?: string }).providerCode : undefined)) ?? OFFERED[0];
        const issued = await service("POST", "/api/v1/registration-sessions", {
          registrationOptions: [{ kind: "PROVIDER_LOGIN", providerCode }],
          originAllowlist: [origin],
          clientReferenceId: "example-user-1",
        });
        const body = (await issued.json()) as Record<string, unknown>;
        return send(issued.status, "application/json", JSON.stringify(issued.ok ? { sessionToken: body.sessionToken, sessionId: body.sessionId, serviceUrl: options.serviceUrl } : body));
      }
      const match = /^\/api\/registration-session\/([\w-]+)$/.exec(req.url ?? "");
      if (req.method === "GET" && match) {
        const polled = await service("GET", `/api/v1/registration-sessions/${match[1]}`);
        return send(polled.status, "application/json", await polled.text());
      }
      const job = /^\/api\/jobs\/([\w-]+)$/.exec(req.url ?? "");
      if (req.method === "GET" && job) return send(200, "application/json", JSON.stringify(await jobForPage(service, job[1]!)));
      send(404, "text/plain", "not found");
    } catch (err) {
      send(502, "application/json", JSON.stringify({ message: String(err) }));
    }
  });
  await new Promise<void>((resolve) => server.listen(options.port, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return { url: origin, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

type Service = (method: string, urlPath: string) => Promise<Response>;

/**
 * A job as the page shows it, polled through the backend (the key stays here). While the job waits for its holder's
 * phone (`awaitingHolder`, 간편인증) the app's name people know is added from the provider's own list of apps
 * (GET /providers/{code}, the `provider` field's options), so the page says "카카오톡", not "kakao". A backend that
 * takes webhooks hears the same moment as `data_job.awaiting_holder` (its `data.object` is this job), e.g. to send
 * the person a push message as well.
 */
async function jobForPage(service: Service, id: string): Promise<Record<string, any>> {
  const answer = await service("GET", `/api/v1/data-jobs/${encodeURIComponent(id)}`);
  const job = (await answer.json()) as Record<string, any>;
  if (!answer.ok || !job.awaitingHolder) return job;
  const provider = (await (await service("GET", `/api/v1/providers/${encodeURIComponent(job.providerCode)}`)).json()) as { credentialFields?: { name: string; authMethod: string; options?: { value: string; label: string }[] }[] };
  const app = provider.credentialFields?.find((f) => f.name === "provider" && f.authMethod === "SIMPLE_AUTH")?.options?.find((o) => o.value === job.awaitingHolder.provider);
  return { ...job, awaitingHolder: { ...job.awaitingHolder, appName: app?.label ?? job.awaitingHolder.provider } };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const partner = await startPartnerExample({
    port: Number(process.env.PORT ?? 5173),
    serviceUrl: process.env.SERVICE_URL ?? "http://127.0.0.1:8787",
    apiKey: process.env.API_KEY ?? process.env.DEMO_API_KEY ?? "",
  });
  console.log(`example partner on ${partner.url}`);
}
