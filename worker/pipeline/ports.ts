import type { ProviderDefinition } from "../catalog/providers";
import type { AcquireResult } from "../durable-objects/credential-lock";
import type { JobRow } from "../jobs/store";
import type { LoginCredential } from "../../collectors/adapter";
import type { JobState } from "./job-state";
import type { PipelineMessage } from "./messages";
import type { ScraperPort } from "./scraper-port";

/** The per-credential lease, as the executor sees it (the CredentialLock Durable Object in production). */
export interface LockPort {
  acquire(jobId: string, leaseMs: number): Promise<AcquireResult>;
  holds(jobId: string): Promise<boolean>;
  rememberSession(jobId: string, scraperSessionId: string | null): Promise<boolean>;
  forgetSession(jobId: string): Promise<string | null>;
  release(jobId: string): Promise<string | null>;
}

export interface RetryPolicy {
  baseSeconds: number;
  maxSeconds: number;
  maxAttempts: number;
}

/** Everything the unit executor touches, injected so it knows nothing of bindings. */
export interface PipelineDeps {
  state: JobState;
  results: R2Bucket;
  scraperFor(provider: ProviderDefinition): ScraperPort;
  lockFor(credentialId: string): LockPort;
  /** The decrypted credential, or null when it was deleted or never existed. */
  loadCredential(credentialId: string): Promise<LoginCredential | null>;
  enqueue(message: PipelineMessage, delaySeconds?: number): Promise<void>;
  /** Shows a job's new row to pollers (the workspace's job board) after a D1 transition. */
  publish(job: JobRow): Promise<void>;
  now(): number;
  random(): number;
  retry: RetryPolicy;
  leaseMs: number;
  /** How long one queue delivery keeps running a job's next units itself before handing on through the queue. */
  inlineBudgetMs: number;
}

export type Outcome = { kind: "ack" } | { kind: "retry"; delaySeconds: number };
