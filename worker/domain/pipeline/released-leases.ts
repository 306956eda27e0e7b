import { findProvider, type ProviderDefinition } from "../catalog/providers";
import type { JobRow } from "../jobs/store";
import type { LockPort, PipelineDeps } from "./ports";

type LeaseDeps = Pick<PipelineDeps, "jobs" | "leaseMs" | "scraperFor">;

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
    jobs.filter((job) => job.credentialId).map((job) => endLease(deps, deps.lockFor(job.credentialId!), job.id, findProvider(job.providerCode)!)),
  );
}
