import { browserInstitutionFor } from "../../../collectors/registry";
import { invalidateCredential, openJobCredential, rememberTargets } from "../credentials/job-credential";
import { settleCheck } from "../credentials/login-checks";
import { credentialLock } from "./credential-lock";
import { numberOr } from "../../platform/configuration";
import { JobLifecycle } from "../jobs/lifecycle";
import { BrowserRenderingScraper, browserRenderingLauncher } from "../scraper/browser-rendering-client";
import { scraperClient } from "../scraper/binding";
import type { PipelineDeps } from "./ports";
import { maintenanceAt, providerClocks } from "../catalog/provider-hours";
import { upcomingOutages } from "../catalog/outages";
import { fileReport } from "../reports/store";
import { refreshJobConsent } from "./consent-refresh";
import { PENDING_ORPHAN_MS, PLAN_RESEND_MS, STALL_MS } from "./sweep";


/** Wires the executor to the bindings: the job tables, R2 results, the lock DO, the scraper. */
export function pipelineDeps(env: Env): PipelineDeps {
  const container = scraperClient(env);
  // The fetch handler and the consumer check the configuration first (configuration.ts): no scraper means no pipeline.
  if (!container) throw new Error("no scraper configured: neither the SCRAPER container binding nor SCRAPER_URL");
  // Without a Browser Rendering binding (local development, tests) the container renders every provider.
  const browserRendering = env.BROWSER
    ? new BrowserRenderingScraper(browserRenderingLauncher(env.BROWSER), (providerCode) => browserInstitutionFor(providerCode, env.SANDBOX_BASE_URL))
    : null;
  return {
    jobs: new JobLifecycle(env),
    results: env.RESULTS,
    scraperFor: (provider) => (provider.runtime === "browser-rendering" && browserRendering ? browserRendering : container),
    lockFor: (credentialId) => credentialLock(env, credentialId),
    loadCredential: (credentialId) => openJobCredential(env.DB, env.VAULT_MASTER_KEY, credentialId),
    invalidateCredential: (credentialId, reason, whileSealed) => invalidateCredential(env.DB, credentialId, reason, Date.now(), whileSealed),
    refreshConsent: refreshJobConsent(env),
    rememberTargets: (credentialId, kind, ids) => rememberTargets(env.DB, credentialId, kind, ids, Date.now()),
    checkSettled: (credentialId, checkId, outcome) => settleCheck(env.DB, credentialId, checkId, outcome, Date.now()),
    fileReport: (providerCode, jobId, report) => fileReport(env, providerCode, { jobId }, report),
    // Only providers with published hours cost a look at their clock; any may have an outage announced.
    maintenanceMet: async (provider, now, runMs) => {
      const [offset, outages] = await Promise.all([provider.maintenance.length === 0 ? null : providerClocks(env)(provider), upcomingOutages(env.DB, now, provider.code)]);
      return maintenanceAt(provider, now, runMs, offset, outages.get(provider.code));
    },
    now: () => Date.now(),
    random: Math.random,
    retry: {
      baseSeconds: numberOr(env.RETRY_BASE_SECONDS, 5),
      maxSeconds: numberOr(env.RETRY_MAX_SECONDS, 60),
      maxAttempts: numberOr(env.RETRY_MAX_ATTEMPTS, 5),
    },
    leaseMs: numberOr(env.LOCK_LEASE_SECONDS, 120) * 1000,
    inlineBudgetMs: numberOr(env.INLINE_BUDGET_SECONDS, 30) * 1000,
    commitEveryMs: numberOr(env.COMMIT_EVERY_SECONDS, 10) * 1000,
    sweep: {
      planResendMs: numberOr(env.PLAN_RESEND_SECONDS, PLAN_RESEND_MS / 1000) * 1000,
      orphanMs: numberOr(env.PENDING_ORPHAN_SECONDS, PENDING_ORPHAN_MS / 1000) * 1000,
      stallMs: numberOr(env.STALL_SECONDS, STALL_MS / 1000) * 1000,
    },
  };
}
