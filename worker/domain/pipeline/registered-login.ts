import type { LoginCheckDeps } from "../registration/login-check";
import { hasActiveJob } from "../jobs/store";
import { pipelineDeps } from "./deps";
import { holderPhoneAsks } from "./credential-lock";
import { APPROVED_LOGIN_KEEP_MS } from "../../../contracts/scraper-protocol";

/** The lease holder a registration takes a new credential's lease as, for the moment it leaves its login there. */
const registrationHolder = (credentialId: string) => `registration:${credentialId}`;


/**
 * What the hosted registration's login check (registration/login-check.ts) uses of the pipeline: the scraper each
 * provider runs on, as jobs reach it, and the credential's lock, where an approved login is left for its first job
 * (`CredentialLock.rememberSession` with a keep, then released with nobody waiting).
 */
export function registrationCheckDeps(env: Env, defer: (work: Promise<unknown>) => void): LoginCheckDeps {
  const deps = pipelineDeps(env);
  return {
    scraperFor: deps.scraperFor,
    hasActiveJob,
    defer,
    holderAsk: async (phone) => (await holderPhoneAsks(env, phone)).holderAsk(),
    async keepLogin(credentialId, scraperSessionId) {
      const lock = deps.lockFor(credentialId);
      const holder = registrationHolder(credentialId);
      const lease = await lock.acquire(holder, deps.leaseMs);
      if (!lease.granted) return false;
      const kept = await lock.rememberSession(lease.fence, scraperSessionId, APPROVED_LOGIN_KEEP_MS);
      const released = await lock.release(holder, deps.leaseMs);
      return kept && released.closeSessionId === null;
    },
  };
}
