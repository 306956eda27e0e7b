import type { ProviderDefinition } from "../catalog/providers";
import { type CredentialCandidate, jobCredentialCandidatesStatement } from "../credentials/choose";
import { type JobBillingRow, jobBillingStatement } from "../workspaces/job-billing";
import type { Revisions } from "./store";
import { IsolateMemory } from "../../platform/lib/isolate-memory";
import { type Subscriber, workspaceSubscribersStatement } from "../webhooks/endpoints";

/**
 * What a job's create decides from: the workspace's billing row (plan, caps, suspension, payment state) and its
 * credentials that may log in at the provider; and whom it tells when the job is born Failed (no credential), the
 * endpoints subscribed to data_job.failed. `kept` says it came from this isolate's memory rather than D1.
 */
export interface CreateContext {
  billing: JobBillingRow | undefined;
  candidates: readonly CredentialCandidate[];
  failedJobSubscribers: readonly Subscriber[];
  revisions: Revisions;
  kept: boolean;
}

/**
 * Read contexts kept per workspace, provider and named credential, so a create is the key's gate and one insert.
 * Nothing invalidates them: a kept context is only ever used with its revisions, which the insert checks, and
 * every change to what it holds moves a revision (drizzle/0036's triggers, whoever writes). A stale one costs the
 * create one refused insert and a fresh read, never a decision on old data.
 */
const kept = new IsolateMemory<Omit<CreateContext, "kept">>(1_000);
/** A workspace with more live credentials for one provider than this is read each time rather than held. */
const KEPT_CANDIDATES = 50;

/**
 * The create context of this workspace, provider and named credential: the one this isolate keeps unless `fresh`,
 * else read in one D1 batch (and kept for the next create).
 */
export async function createContext(d1: D1Database, workspaceId: string, provider: ProviderDefinition, credentialId: string | undefined, fresh = false): Promise<CreateContext> {
  const key = `${workspaceId}\n${provider.code}\n${credentialId ?? ""}`;
  const held = fresh ? undefined : kept.get(key);
  if (held) return { ...held, kept: true };
  // D1's own batch, not drizzle's: the three owners hand over raw D1 statements, which drizzle's batch cannot take.
  const [billingRows, credentialRows, subscriberRows] = await d1.batch([
    jobBillingStatement(d1, workspaceId),
    jobCredentialCandidatesStatement(d1, workspaceId, provider.code, provider.acceptedAuthMethods.includes("CERTIFICATE"), credentialId),
    workspaceSubscribersStatement(d1, workspaceId, "data_job.failed"),
  ]);
  const billing = billingRows!.results[0] as JobBillingRow | undefined;
  const candidates = credentialRows!.results as CredentialCandidate[];
  const context = {
    billing,
    candidates,
    failedJobSubscribers: subscriberRows!.results as Subscriber[],
    revisions: { workspace: billing?.revision ?? 0, billing: billing?.billingRevision ?? 0 },
  };
  if (candidates.length <= KEPT_CANDIDATES) kept.keep(key, context);
  else kept.forget(key);
  return { ...context, kept: false };
}
