import type { PageReport } from "../../../contracts/scraper-protocol";
import type { JobErrorCode } from "../../../contracts/job-failures";
import type { JobCredential } from "../credentials/job-credential";
import type { CheckOutcome } from "../credentials/login-checks";
import type { RefreshOutcome } from "../credentials/consents";
import type { ProviderDefinition } from "../catalog/providers";
import type { MaintenanceWindow } from "../catalog/maintenance";
import type { AcquireResult, LeaseGrant, LineRefusal, LineTicket, Released } from "./credential-lock";
import type { JobLifecycle } from "../jobs/lifecycle";
import type { ScraperPort } from "../scraper/port";
import type { SweepPolicy } from "./sweep";

/** The per-credential lease, as the executor sees it (the CredentialLock Durable Object in production). */
export interface LockPort {
  acquire(jobId: string, leaseMs: number): Promise<AcquireResult>;
  acquireOrQueue(jobId: string, leaseMs: number, ticket: LineTicket): Promise<LeaseGrant | LineRefusal>;
  renew(fence: number, leaseMs: number): Promise<boolean>;
  park(fence: number): Promise<void>;
  rememberSession(fence: number, scraperSessionId: string, keepMs?: number): Promise<boolean>;
  forgetSession(fence: number): Promise<string | null>;
  holderAsk(): Promise<number>;
  release(jobId: string, leaseMs: number): Promise<Released>;
}

export interface RetryPolicy {
  baseSeconds: number;
  maxSeconds: number;
  maxAttempts: number;
}

/** Everything the unit executor touches, injected so it knows nothing of bindings. */
export interface PipelineDeps {
  /** The job tables' transitions: each writes D1, publishes the row and enqueues what follows. */
  jobs: JobLifecycle;
  results: R2Bucket;
  scraperFor(provider: ProviderDefinition): ScraperPort;
  lockFor(credentialId: string): LockPort;
  /** The job's credential: its decrypted login, refused by the institution before (invalid), or gone. */
  loadCredential(credentialId: string): Promise<JobCredential>;
  /**
   * Tells the credentials' owner that the institution refused this login, so no later job tries it again; with
   * `whileSealed`, only while the secret is still the one refused (a recovery may have written another meanwhile).
   */
  invalidateCredential(credentialId: string, reason: JobErrorCode, whileSealed?: string): Promise<void>;
  /**
   * An Open Banking consent a job met as ended or refused (NO_VALID_CREDENTIAL): one refresh for the job since
   * `since`, while `whileSealed` is the secret sealed (pipeline/consent-refresh.ts). Unset (test harnesses), none is tried.
   */
  refreshConsent?(credentialId: string, since: number, whileSealed: string): Promise<RefreshOutcome | "newer">;
  /** Tells the credentials' owner which accounts or cards the institution showed, so later jobs naming others are refused at once. */
  rememberTargets(credentialId: string, kind: "accounts" | "cards", ids: string[]): Promise<void>;
  /** Tells the credentials' owner what a probe found of the login, under the check it was sent for. */
  checkSettled(credentialId: string, checkId: string, outcome: CheckOutcome): Promise<void>;
  /** Keeps what the scraper kept of a page it could not read, for operators (worker/domain/reports/store.ts). */
  fileReport(providerCode: string, jobId: string, report: PageReport): Promise<unknown>;
  /** The provider's maintenance a run from `now` lasting `runMs` would meet (domain/catalog/provider-hours.ts), in our time. */
  maintenanceMet(provider: ProviderDefinition, now: number, runMs: number): Promise<MaintenanceWindow | null>;
  now(): number;
  random(): number;
  retry: RetryPolicy;
  leaseMs: number;
  /** How long one queue delivery keeps running a job's next units itself before handing on through the queue. */
  inlineBudgetMs: number;
  /** How long collected units may wait in memory before they are stored and committed together (worker/domain/pipeline/pending-units.ts). */
  commitEveryMs: number;
  sweep: SweepPolicy;
}

export type Outcome = { kind: "ack" } | { kind: "retry"; delaySeconds: number };
