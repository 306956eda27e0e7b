import type { BatchItem } from "drizzle-orm/batch";
import { type JobError, jobError } from "../../../contracts/job-failures";
import { database } from "../../platform/database/client";
import { retireWorkspaceCredentials } from "../credentials/retirement";
import { type ConnectionRow, connectionToRevoke, revokeStatement } from "../partners/connections";
import type { SessionEventsEnv } from "../registration/events";
import { cancelWorkspaceSessions, workspaceSessionsCancelled } from "../registration/sessions";

/** What revoking asks of the job flow (jobs/lifecycle.ts `JobLifecycle`): a workspace's unfinished jobs failed in the batch given. */
interface WorkspaceJobs<Job> {
  workspaceFailed(workspaceId: string, error: JobError, now: number, alongside: BatchItem<"sqlite">[]): Promise<Job[]>;
}

/**
 * Revokes a connection and, in the same transaction, everything the business left in motion: its credentials are
 * deleted (their secrets erased), its registration sessions still taking input are cancelled and its unfinished jobs
 * fail CREDENTIAL_NOT_FOUND (their credential is gone). Returns those jobs, whose credential leases the caller
 * releases. It sits above the owners it ends things of, so partners stays below credentials and registration (whose
 * Open Banking consents use a partner's keys); `jobs` (the caller's JobLifecycle) fails the jobs in that transaction,
 * the job flow sitting above it.
 */
export async function revokeConnection<Job>(
  env: SessionEventsEnv,
  partnerWorkspaceId: string,
  id: string,
  jobs: WorkspaceJobs<Job>,
): Promise<{ connection: ConnectionRow; endedJobs: Job[] }> {
  const row = await connectionToRevoke(env.DB, partnerWorkspaceId, id);
  const db = database(env.DB);
  const now = Date.now();
  const endedJobs = await jobs.workspaceFailed(row.workspaceId, jobError("CREDENTIAL_NOT_FOUND"), now, [
    revokeStatement(env.DB, id, now),
    retireWorkspaceCredentials(db, row.workspaceId, now),
    cancelWorkspaceSessions(db, row.workspaceId, now),
  ]);
  await workspaceSessionsCancelled(env, row.workspaceId, now);
  return { connection: { ...row, status: "REVOKED", revokedAt: now }, endedJobs };
}
