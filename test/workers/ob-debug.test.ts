import { env } from "cloudflare:workers";
import { it, vi } from "vitest";
import { userByLogin } from "../../sandbox/openbanking/ground-truth";
import { refreshConsents } from "../../worker/domain/credentials/consents";
import { openJobCredential } from "../../worker/domain/credentials/store";
import { ContainerScraper } from "../../worker/domain/scraper/container-client";
import { scraperInstances } from "../../worker/domain/scraper/binding";
import { createWorkspace, call, callJson } from "./helpers";
import { hostedUiHeaders } from "./registration-envelope";

it("debug", async () => {
  const lines: string[] = [];
  for (const level of ["error", "warn", "log", "info"] as const) vi.spyOn(console, level).mockImplementation((...a: unknown[]) => void lines.push(level + " " + a.map(String).join(" ")));
  const ws = await createWorkspace({ businessNumber: "1208800767" });
  const s = (await callJson<any>("/api/v1/registration-sessions", { method: "POST", key: ws.apiKey, json: { registrationOptions: [{ kind: "PROVIDER_LOGIN", providerCode: "openbanking" }], originAllowlist: ["https://partner.example"] } })).body;
  const started = (await callJson<any>("/connect/api/open-banking/authorizations", { method: "POST", headers: hostedUiHeaders(s.sessionToken), json: { providerCode: "openbanking" } })).body;
  const authorize = new URL(started.authorizationUrl);
  const user = userByLogin("obuser2")!;
  const sid = /name="session" value="([^"]+)"/.exec(await (await fetch(authorize)).text())![1]!;
  const post = (path: string, form: URLSearchParams) => fetch(new URL(path, authorize), { method: "POST", body: form, redirect: "manual", headers: { "Content-Type": "application/x-www-form-urlencoded" } });
  await (await post("authorize_login", new URLSearchParams({ session: sid, user_id: user.loginId, password: user.password, action: "login" }))).text();
  const back = await post("authorize_consent", new URLSearchParams({ session: sid, action: "agree", fintech_use_num: user.accounts[0]!.fintechUseNum }));
  const cb = new URL(back.headers.get("location")!);
  await call(`${cb.pathname}${cb.search}`);
  const id = (await callJson<any>(`/api/v1/registration-sessions/${s.sessionId}`, { key: ws.apiKey })).body.credentialId;
  const scraper = new ContainerScraper(scraperInstances(env)!, env.SCRAPER_SHARED_SECRET);
  console.log("before", JSON.stringify(await openJobCredential(env.DB, env.VAULT_MASTER_KEY, id)).slice(0, 300));
  if (process.env.X) console.log(await refreshConsents(env.DB, env.VAULT_MASTER_KEY, (r) => scraper.openBankingToken(r), Date.now() + 85 * 86_400_000));
  const found = await openJobCredential(env.DB, env.VAULT_MASTER_KEY, id);
  console.log("after", JSON.stringify(found).slice(0, 400));
  const created = (await callJson<any>("/api/v1/data-jobs", { method: "POST", key: ws.apiKey, json: { providerCode: "openbanking", schema: "bank.accounts.cb.v1", params: {} } })).body;
  for (let i = 0; i < 10; i++) {
    await new Promise((r) => setTimeout(r, 1500));
    const j = (await callJson<any>(`/api/v1/data-jobs/${created.id}`, { key: ws.apiKey })).body;
    console.log("job", JSON.stringify(j).slice(0, 600));
    const rows = await env.DB.prepare("SELECT * FROM jobs WHERE id = ?").bind(created.id).all();
    console.log("row", JSON.stringify(rows.results).slice(0, 1500));
    if (j.kind !== "InProgress") break;
  }
  vi.restoreAllMocks();
  console.log(lines.join("\n").slice(0, 4000));
  try {
    const sessionId = await scraper.openSession("openbanking", (found as any).login);
    console.log("session", sessionId);
    const targets = await scraper.targets(sessionId, "bank.accounts.cb.v1");
    console.log(JSON.stringify(await scraper.collect(sessionId, { jobId: "j", unitIndex: 0, schema: "bank.accounts.cb.v1", target: targets[0]!, segment: null, params: {} } as any)));
  } catch (e) { console.log("ERR", String(e), (e as any).code); }
});
