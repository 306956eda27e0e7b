import { eq } from "drizzle-orm";
import { database } from "../db/client";
import { publishJob } from "../jobs/board";
import { credentials } from "../db/tables";
import type { Bindings } from "../env";
import { institutionFor } from "../../collectors/registry";
import { openCredential } from "../vault/envelope";
import { BrowserRenderingScraper, browserRenderingLauncher } from "./browser-rendering-scraper";
import { ContainerScraper } from "./container-scraper";
import { JobState } from "./job-state";
import type { LockPort, PipelineDeps } from "./ports";

const number = (value: string | undefined, fallback: number) => (value === undefined || value === "" ? fallback : Number(value));

/** Wires the executor to the bindings: D1 state, R2 results, the lock DO, the scraper, the queue. */
export function pipelineDeps(env: Bindings): PipelineDeps {
  const container = new ContainerScraper(env.SCRAPER_URL, env.SCRAPER_SHARED_SECRET);
  // Without a Browser Rendering binding (local development, tests) the container renders every provider.
  const browserRendering = env.BROWSER
    ? new BrowserRenderingScraper(browserRenderingLauncher(env.BROWSER), (providerCode) => institutionFor(providerCode, env.SANDBOX_BASE_URL))
    : null;
  return {
    state: new JobState(env.DB),
    results: env.RESULTS,
    scraperFor: (provider) => (provider.runtime === "browser-rendering" && browserRendering ? browserRendering : container),
    lockFor: (credentialId): LockPort => env.CREDENTIAL_LOCKS.get(env.CREDENTIAL_LOCKS.idFromName(credentialId)),
    async loadCredential(credentialId) {
      const row = await database(env.DB).select().from(credentials).where(eq(credentials.id, credentialId)).get();
      if (!row || row.status !== "ACTIVE") return null;
      return openCredential(env.VAULT_MASTER_KEY, row.id, row.sealed);
    },
    enqueue: async (message, delaySeconds) => {
      await env.TASKS.send(message, delaySeconds ? { delaySeconds } : undefined);
    },
    publish: (job) => publishJob(env, job),
    now: () => Date.now(),
    random: Math.random,
    retry: {
      baseSeconds: number(env.RETRY_BASE_SECONDS, 5),
      maxSeconds: number(env.RETRY_MAX_SECONDS, 60),
      maxAttempts: number(env.RETRY_MAX_ATTEMPTS, 5),
    },
    leaseMs: number(env.LOCK_LEASE_SECONDS, 120) * 1000,
    inlineBudgetMs: number(env.INLINE_BUDGET_SECONDS, 30) * 1000,
  };
}
