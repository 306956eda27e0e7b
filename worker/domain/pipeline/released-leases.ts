import { findProvider, type ProviderDefinition, runsOnDeploymentKey } from "../catalog/providers";
import type { JobRow } from "../jobs/store";
import type { LockPort, PipelineDeps } from "./ports";

type LeaseDeps = Pick<PipelineDeps, "jobs" | "leaseMs" | "scraperFor">;

/**
 * The lease a job runs under: its credential's, so one login per credential at a time; a job with no credential (a
 * provider on the deployment's key) has one of its own, as nothing it uses is shared with another job.
 */
export const jobLockName = (job: Pick<JobRow, "id" | "credentialId">): string => job.credentialId ?? `job:${job.id}`;

/**
 * Ends a holder's lease on a credential: its login is closed, or goes with the lease to the first job waiting in
 * the credential's line, which is woken; the jobs behind are shown their new places.
 */
export async function endLease(deps: LeaseDeps, lock: LockPort, holder: string, provider: ProviderDefinition): Promise<void> {
  const released = await lock.release(holder, deps.leaseMs);
  if (released.closeSessionId) await deps.scraperFor(provider).closeSession(released.closeSessionId);
  await deps.jobs.lineMoved(released.handedTo, released.waiting);
}

/**
 * Ends the credential leases of jobs that were failed outside a delivery
 * (e.g. by a connection's revocation), so no login outlives its job and the
 * jobs waiting behind them move on. A delivery still running one of them
 * then loses its lease and commits nothing more.
 */
export async function releaseJobLeases(deps: LeaseDeps & Pick<PipelineDeps, "lockFor">, jobs: Pick<JobRow, "id" | "credentialId" | "providerCode">[]): Promise<void> {
  await Promise.all(
    jobs
      .map((job) => ({ job, provider: findProvider(job.providerCode)! }))
      // A job born without a credential (CREDENTIAL_NOT_FOUND) never held a lease.
      .filter(({ job, provider }) => job.credentialId || runsOnDeploymentKey(provider))
      .map(({ job, provider }) => endLease(deps, deps.lockFor(jobLockName(job)), job.id, provider)),
  );
}
