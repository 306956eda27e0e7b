import { findProvider } from "../catalog/providers";
import { type ConsentLease, refreshConsents, type RefreshCounts, refreshForJob } from "../credentials/consents";
import { oneOf } from "../../platform/configuration";
import { DEFAULT_OPTIONS, REFRESH_POLICIES } from "../../../collectors/openbanking/options";
import { scraperClient } from "../scraper/binding";
import { refreshHolder } from "./brief-holders";
import type { PipelineDeps } from "./ports";
import { endLease } from "./released-leases";

/**
 * A consent's refresh under the credential's lease, taken as a probe takes it: refused while a job or a check holds
 * it. A job's login parked on the lease is closed, so the job's next delivery logs in with the new tokens.
 */
export function refreshLease(deps: Pick<PipelineDeps, "jobs" | "leaseMs" | "scraperFor" | "lockFor">): ConsentLease {
  return async (credential, work) => {
    const provider = findProvider(credential.providerCode)!;
    const lock = deps.lockFor(credential.id);
    const holder = refreshHolder(credential.id);
    const lease = await lock.acquire(holder, deps.leaseMs);
    if (!lease.granted) return false;
    try {
      if (lease.supersededSessionId) await deps.scraperFor(provider).closeSession(lease.supersededSessionId);
      await work();
      return true;
    } finally {
      await endLease(deps, lock, holder, provider);
    }
  };
}

/** The cron's step, in a deployment it found configured (so with a scraper): the due consents refreshed through it. */
export async function refreshDueConsents(env: Env, deps: Parameters<typeof refreshLease>[0], now: number): Promise<RefreshCounts> {
  const scraper = scraperClient(env);
  if (!scraper) throw new Error("refreshDueConsents: the deployment has no scraper; the cron asserts one first");
  const policy = oneOf(env.OPENBANKING_REFRESH_POLICY, REFRESH_POLICIES, DEFAULT_OPTIONS.refreshPolicy);
  return refreshConsents(env.DB, env.VAULT_MASTER_KEY, { refresh: (request) => scraper.openBankingToken(request), leased: refreshLease(deps) }, now, undefined, policy);
}

/**
 * A job's consent that the adapter found ended or KFTC refused (NO_VALID_CREDENTIAL): refreshed through the scraper
 * once for that job (consents.ts refreshForJob), the job holding the credential's lease. The executor tries the job
 * again on `refreshed` or `newer`, and marks the consent ended only on `ended`.
 */
export function refreshJobConsent(env: Env): NonNullable<PipelineDeps["refreshConsent"]> {
  return (credentialId, since, whileSealed) => {
    const scraper = scraperClient(env);
    if (!scraper) return Promise.resolve("failed");
    return refreshForJob(env.DB, env.VAULT_MASTER_KEY, (request) => scraper.openBankingToken(request), credentialId, since, whileSealed, Date.now());
  };
}
