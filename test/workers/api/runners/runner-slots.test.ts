import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { scraperAuthorization } from "../../../../contracts/scraper-protocol";
import { call } from "../../../support/workers/helpers";

type Json = Record<string, any>;

const withRunners = { ...env, SCRAPER_RUNNERS: "2" } as Env;
const asScraper = { Authorization: scraperAuthorization(env.SCRAPER_SHARED_SECRET) };

describe("runner slots", () => {
  it("lets only a holder of the scraper's secret connect to, or ask after, a slot the deployment has", async () => {
    const refused = await call("/runner/status/0", { headers: { Authorization: "Bearer not-the-secret" }, env: withRunners });
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as Json).code).toBe("INVALID_TOKEN");
    expect((await call("/runner/status/2", { headers: asScraper, env: withRunners })).status).toBe(404);
    expect((await call("/runner/status/0", { headers: asScraper })).status).toBe(404);
    // A slot nobody holds yet: calls to it would fail like an unreachable scraper.
    const empty = await call("/runner/status/1", { headers: asScraper, env: withRunners });
    expect(empty.status).toBe(503);
    expect(await empty.json()).toEqual({ connected: false });
    expect((await call("/runner/connect/1", { headers: asScraper, env: withRunners })).status).toBe(400);
  });
});
