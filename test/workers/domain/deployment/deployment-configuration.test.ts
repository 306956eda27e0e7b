import { createExecutionContext, createMessageBatch, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { configurationProblems, REQUIRED_SECRETS } from "../../../../worker/domain/deployment/configuration-problems";
import worker from "../../../../worker/index";
import type { PipelineMessage } from "../../../../worker/domain/jobs/messages";
import { createWorkspace } from "../../../support/workers/helpers";

const without = (name: keyof Env): Env => ({ ...env, [name]: undefined });

async function fetchWith(bindings: Env, path: string, init: RequestInit = {}): Promise<Response> {
  const ctx = createExecutionContext();
  const response = await worker.fetch(new Request(`https://api.test${path}`, init) as Parameters<typeof worker.fetch>[0], bindings, ctx);
  await waitOnExecutionContext(ctx);
  return response;
}

describe("a deployment missing a secret or its scraper", () => {
  it("finds nothing missing in a complete configuration", () => {
    expect(configurationProblems(env)).toEqual([]);
  });

  for (const name of REQUIRED_SECRETS) {
    it(`answers 503 SCRAPING_ENGINE_UNAVAILABLE to every request without ${name}, public and authenticated alike`, async () => {
      const ws = await createWorkspace();
      for (const [path, init] of [
        ["/api/v1/openapi.json", {}],
        ["/api/v1/data-jobs", { headers: { Authorization: `Bearer ${ws.apiKey}` } }],
        ["/connect", {}],
      ] as const) {
        const response = await fetchWith(without(name), path, init);
        expect(response.status).toBe(503);
        const body = await response.json<Record<string, string>>();
        expect(body).toMatchObject({ code: "SCRAPING_ENGINE_UNAVAILABLE", message: expect.stringMatching(/[가-힣]/), requestId: expect.any(String) });
      }
    });
  }

  it("requires the Open Banking Callback URL, and without it takes no consent from the Host a request names", async () => {
    expect(configurationProblems(without("OPENBANKING_CALLBACK_URL"))).toEqual(["OPENBANKING_CALLBACK_URL is not an absolute URL"]);
    expect(configurationProblems({ ...env, OPENBANKING_CALLBACK_URL: "/connect/open-banking/callback" })).toEqual(["OPENBANKING_CALLBACK_URL is not an absolute URL"]);
    const ws = await createWorkspace({ businessNumber: "1208800767" });
    const issued = await fetchWith(env, "/api/v1/registration-sessions", {
      method: "POST",
      headers: { Authorization: `Bearer ${ws.apiKey}`, "Content-Type": "application/json" },
      body: JSON.stringify({ registrationOptions: [{ kind: "PROVIDER_LOGIN", providerCode: "openbanking" }], originAllowlist: ["https://partner.example"] }),
    });
    const { sessionToken } = await issued.json<{ sessionToken: string }>();
    const ctx = createExecutionContext();
    const started = await worker.fetch(
      new Request("https://attacker.example/connect/api/open-banking/authorizations", { method: "POST", headers: { Authorization: `Bearer ${sessionToken}`, Origin: "https://partner.example", "Content-Type": "application/json" }, body: JSON.stringify({ providerCode: "openbanking" }) }) as Parameters<typeof worker.fetch>[0],
      without("OPENBANKING_CALLBACK_URL"),
      ctx,
    );
    await waitOnExecutionContext(ctx);
    const text = await started.text();
    expect(started.status, text).toBe(503);
    expect(JSON.parse(text)).toMatchObject({ code: "SCRAPING_ENGINE_UNAVAILABLE" });
    expect(text).not.toContain("attacker.example");
  });

  it("checks a deployment's bindings once, not again for every request they serve", async () => {
    // workerd hands an isolate's every request one bindings object; DOWNLOAD_LINK_KEYS is read by the check and by
    // download and manage links only, which the OpenAPI document never reaches.
    let reads = 0;
    const counted = new Proxy(env, { get: (target, name, receiver) => (name === "DOWNLOAD_LINK_KEYS" && reads++, Reflect.get(target, name, receiver)) });
    expect((await fetchWith(counted, "/api/v1/openapi.json")).status).toBe(200);
    const checked = reads;
    expect(checked).toBeGreaterThan(0);
    for (let i = 0; i < 3; i++) expect((await fetchWith(counted, "/api/v1/openapi.json")).status).toBe(200);
    expect(reads).toBe(checked);
  });

  it("refuses a scraper secret shorter than the scraper accepts", () => {
    expect(configurationProblems({ ...env, SCRAPER_SHARED_SECRET: "short" })).toEqual(["secret SCRAPER_SHARED_SECRET is shorter than 32 characters"]);
  });

  it("refuses to run without a scraper rather than reach one at a default address", async () => {
    const bindings = { ...env, SCRAPER_URL: undefined, SCRAPER: undefined };
    expect(configurationProblems(bindings)).toEqual(["no scraper: neither the SCRAPER container binding nor SCRAPER_URL"]);
    expect((await fetchWith(bindings, "/api/v1/openapi.json")).status).toBe(503);
  });

  it("leaves queue batches and the cron sweep undone, naming what is missing and never a value", async () => {
    const bindings = without("VAULT_MASTER_KEY");
    const batch = createMessageBatch<PipelineMessage>("collect-tasks", [
      { id: "m1", timestamp: new Date(), attempts: 1, body: { type: "plan", jobId: crypto.randomUUID(), workspaceId: crypto.randomUUID() } },
    ]);
    await expect(worker.queue(batch, bindings)).rejects.toThrow(/VAULT_MASTER_KEY is not set/);
    const leaky = { ...bindings, SCRAPER_SHARED_SECRET: "too-short-but-secret" };
    const failure = worker.scheduled(createScheduledController(), leaky);
    await expect(failure).rejects.toThrow(/SCRAPER_SHARED_SECRET is shorter/);
    await expect(failure).rejects.not.toThrow(/too-short-but-secret/);
  });
});
