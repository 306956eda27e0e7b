import { findProvider } from "../catalog/providers";
import type { JobRow } from "../jobs/store";
import type { PipelineDeps } from "./ports";

/**
 * Ends the credential leases of jobs that were failed outside a delivery
 * (e.g. by a connection's revocation) and closes the scraper sessions they
 * kept, so no login outlives its job. A delivery still running one of them
 * then loses its lease and commits nothing more.
 */
export async function releaseJobLeases(deps: Pick<PipelineDeps, "lockFor" | "scraperFor">, jobs: Pick<JobRow, "id" | "credentialId" | "providerCode">[]): Promise<void> {
  await Promise.all(
    jobs.map(async (job) => {
      const sessionId = job.credentialId ? await deps.lockFor(job.credentialId).release(job.id) : null;
      if (sessionId) await deps.scraperFor(findProvider(job.providerCode)!).closeSession(sessionId);
    }),
  );
}
