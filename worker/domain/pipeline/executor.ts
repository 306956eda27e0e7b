import { ProviderFailure } from "../../../collectors/adapter";
import type { AdapterCredential, HolderApproval, RawRecord, Target, TaskUnit } from "../../../contracts/task-unit";
import { type JobErrorCode, jobError } from "../../../contracts/job-failures";
import { collectBoundMs, findProvider, type ProviderDefinition, runsOnDeploymentKey, unitWindowDays } from "../catalog/providers";
import { findSchema, type SchemaDefinition } from "../catalog/schemas";
import type { LeaseGrant } from "./credential-lock";
import { APPROVED_LOGIN_KEEP_MS } from "../../../contracts/scraper-protocol";
import type { MaintenanceWindow } from "../catalog/maintenance";
import type { Continuation, PlannedUnit } from "../jobs/lifecycle";
import type { PipelineMessage } from "../jobs/messages";
import { isFinished, type JobRow, type QueuedUnit } from "../jobs/store";
import { type CollectedUnit, storeUnitResults } from "../results/unit-results";
import { PendingUnits } from "./pending-units";
import { backoffSeconds } from "../../platform/lib/backoff";
import type { LockPort, Outcome, PipelineDeps } from "./ports";
import { AwaitingHolder, SessionGone } from "../scraper/port";
import { ReportedFailure } from "../../../collectors/kit/page-report";
import { redactText } from "../../../collectors/kit/redaction";
import { redactionFor } from "../../../collectors/registry";
import { splitRange } from "./segments";
import { isSameTarget, notShown, shownList } from "../credentials/targets";
import { INVALIDATES_CREDENTIAL, WAITS_FOR_CAPACITY } from "./failure-policy";
import { executeProbe } from "./probe";
import { isBriefHolder } from "./brief-holders";
import { endLease, jobLockName } from "./released-leases";
import { canonicalJson } from "../../platform/lib/canonical-json";
import { log } from "../../platform/observability/telemetry";
import { withoutQueryParams } from "../../platform/database/client";

const ACK: Outcome = { kind: "ack" };

// A probe (one login) or a consent's refresh (one token call) holds the credential: a job finding it there asks again this soon.
const BRIEF_WAIT_SECONDS = 3;

// Transient, but retrying cannot help: another job owns the credential, or the budget is spent.
const NOT_RESUMED: ReadonlySet<JobErrorCode> = new Set(["LOCK_CONTENTION", "JOB_TIMEOUT", "PENDING_ORPHAN"]);

/** A job starting this close before a maintenance window would be cut by it: it waits for the window's end instead. */
const RUN_ESTIMATE_MS = 60_000;
// An institution takes a moment to open again after its window.
const AFTER_WINDOW_MS = 5_000;

/** A delivery whose login still waits for its holder is sent again this soon: the scraper itself waited a while already. */
const ASK_HOLDER_AGAIN_SECONDS = 1;

/** Renewals keep a lease alive while a unit runs: several per term, but never a flood for very short terms. */
const MIN_RENEW_INTERVAL_MS = 100;

interface JobContext {
  deps: PipelineDeps;
  job: JobRow;
  provider: ProviderDefinition;
  schema: SchemaDefinition;
  lock: LockPort;
  /** The sealed secret this delivery logged in with, shared by the delivery and its context (credentialOf). */
  opened: { sealed?: string };
  /** The lease this delivery works under; every login and commit happens under its fence. */
  lease: LeaseGrant;
  /** This delivery showed the job waiting for its holder's approval (withSession). */
  holderAsked?: boolean;
}

type Delivery = Omit<JobContext, "lease">;

/**
 * Runs one pipeline message to an outcome: ack, or retry after a delay
 * (automatic resumption). The delivery takes the credential's lease, and
 * after its own unit carries on with the job's next units while
 * `inlineBudgetMs` lasts, then parks the lease and hands the chain on
 * through the queue. Collected units are committed together, under the
 * lease's fence, when they are due (`PendingUnits`) and whenever the
 * delivery stops, a failure included: a crash loses at most the units
 * collected since the last commit.
 */
export async function executeMessage(deps: PipelineDeps, message: PipelineMessage): Promise<Outcome> {
  if (message.type === "probe") return executeProbe(deps, message);
  const job = await deps.jobs.job(message.jobId);
  if (!job || isFinished(job)) return ACK;
  if (message.type === "plan" && job.status !== "PENDING") return ACK;
  const delivery: Delivery = { deps, job, provider: findProvider(job.providerCode)!, schema: findSchema(job.schema)!, lock: deps.lockFor(jobLockName(job)), opened: {} };
  const ownUnit = message.type === "unit" ? message.unitIndex : null;
  const pending = new PendingUnits(deps.commitEveryMs);
  let ctx: JobContext | null = null;
  // The unit this delivery is on, until it was collected: where the chain resumes if it fails.
  let current: number | null = null;
  try {
    if (deps.now() >= job.deadlineAt) throw new ProviderFailure("JOB_TIMEOUT");
    if (message.type === "plan") {
      await credentialOf(delivery);
      const ahead = await deps.maintenanceMet(delivery.provider, deps.now(), RUN_ESTIMATE_MS);
      if (ahead) throw new MaintenanceMet(ahead);
    }
    const taken = message.type === "plan" ? await takeTurn(delivery) : await takeLease(delivery);
    if ("retry" in taken) return taken.retry;
    ctx = taken.ctx;
    const started = deps.now();
    let next = message.type === "plan" ? await plan(ctx) : message.unitIndex;
    let unit = next === null ? null : await deps.jobs.unit(job.id, next);
    while (unit) {
      current = unit.unitIndex;
      if (unit.unitIndex !== ownUnit) {
        if (deps.now() - started >= deps.inlineBudgetMs) {
          next = pending.size > 0 ? await commit(ctx, pending) : unit.unitIndex;
          // Parked first, so the next delivery finds the lease free for this job.
          await ctx.lock.park(ctx.lease.fence);
          if (next !== null) await deps.jobs.handedOn(job, next);
          return ACK;
        }
        if (deps.now() >= job.deadlineAt) throw new ProviderFailure("JOB_TIMEOUT");
      }
      pending.add(await collectUnit(ctx, unit, pending.size), deps.now());
      current = null;
      // Units that are due are committed without looking further: the commit names the next unit itself.
      const following = pending.due(deps.now()) ? null : await deps.jobs.queuedUnitAfter(job.id, unit.unitIndex);
      if (following) {
        unit = following;
        continue;
      }
      next = await commit(ctx, pending);
      unit = next === null ? null : await deps.jobs.unit(job.id, next);
    }
    await ctx.lock.park(ctx.lease.fence);
    return ACK;
  } catch (err) {
    // What was collected before the failure is kept: units waiting are committed now, and the chain resumes from the
    // unit the failure met, or where that commit leaves it; units of a commit that failed are collected again.
    let failure = err;
    let resumeAt = current;
    const first = pending.uncommittedFrom;
    if (ctx && first !== null) {
      if (pending.size === 0) resumeAt = first;
      else {
        try {
          const next = await commit(ctx, pending);
          resumeAt ??= next;
        } catch (commitErr) {
          failure = commitErr;
          resumeAt = first;
        }
      }
    }
    if (ctx) await ctx.lock.park(ctx.lease.fence);
    // Waiting for a person is no failure: the same work is asked again shortly, spending none of the job's attempts
    // and none of the message's retries; the request lapsing on the phone is the adapter's failure, in time.
    if (failure instanceof AwaitingHolder) {
      if (resumeAt !== null && resumeAt !== ownUnit) await deps.jobs.handedOn(job, resumeAt, ASK_HOLDER_AGAIN_SECONDS);
      else await deps.jobs.resend(message, ASK_HOLDER_AGAIN_SECONDS);
      return ACK;
    }
    const outcome = await handleFailure(delivery, ctx, failure);
    // A unit past the message's own gets a message of its own to resume from, and this message is done; the
    // message's own unit is retried with the message.
    if (outcome.kind === "retry" && resumeAt !== null && resumeAt !== ownUnit) {
      await deps.jobs.handedOn(job, resumeAt, outcome.delaySeconds);
      return ACK;
    }
    return outcome;
  }
}

async function credentialOf(delivery: Delivery): Promise<{ login: AdapterCredential; businessNumber: string | null }> {
  // The scraper puts its own key in; the worker holds none (docs/institutions/nts-business-status.md §6).
  if (runsOnDeploymentKey(delivery.provider)) return { login: { authMethod: "DEPLOYMENT_KEY" }, businessNumber: null };
  const found = delivery.job.credentialId ? await delivery.deps.loadCredential(delivery.job.credentialId) : { kind: "gone" as const };
  // The refusal it was marked for, so the job names that fix (unlock at the bank, a valid certificate), not "register again".
  if (found.kind === "invalid") throw new ProviderFailure(found.reason, "the institution refused this credential before");
  if (found.kind === "gone") throw new ProviderFailure("CREDENTIAL_NOT_FOUND");
  delivery.opened.sealed = found.sealed;
  return found;
}

/**
 * A job starting: the credential's lease, or its place in the credential's line, shown on the job, until the jobs
 * ahead hand the lease on (`endLease` wakes it) or its re-check comes. LOCK_CONTENTION only for the same
 * collection already running or waiting, or a place its deadline could not wait for.
 */
async function takeTurn(delivery: Delivery): Promise<{ ctx: JobContext } | { retry: Outcome }> {
  const { deps, job, lock } = delivery;
  const result = await lock.acquireOrQueue(job.id, deps.leaseMs, { requestKey: canonicalJson([job.schema, job.params]), deadlineAt: job.deadlineAt });
  if (result.granted) return granted(delivery, result);
  if (isBriefHolder(result.heldBy)) return { retry: { kind: "retry", delaySeconds: BRIEF_WAIT_SECONDS } };
  if (result.line !== "waiting") throw new ProviderFailure("LOCK_CONTENTION", `credential leased by ${result.heldBy} (${result.line})`);
  if (!result.busy) await deps.jobs.waiting(job.id, result.position);
  return { retry: { kind: "retry", delaySeconds: Math.ceil(result.askAgainMs / 1000) } };
}

/**
 * Takes the credential's lease for a delivery of a job already under way. Another job holding it means this job's
 * lease ran out (LOCK_LEASE_LOST); another delivery of this job holding it (a duplicate, or one that died before
 * parking) means this message waits until that lease could have run out.
 */
async function takeLease(delivery: Delivery): Promise<{ ctx: JobContext } | { retry: Outcome }> {
  const { deps, job, lock } = delivery;
  const result = await lock.acquire(job.id, deps.leaseMs);
  if (result.granted) return granted(delivery, result);
  // A probe logs in once and lets go: waiting a few seconds for it beats failing a job.
  if (isBriefHolder(result.heldBy)) return { retry: { kind: "retry", delaySeconds: BRIEF_WAIT_SECONDS } };
  if (result.busy) return { retry: { kind: "retry", delaySeconds: Math.max(1, Math.ceil((result.leaseUntil - deps.now()) / 1000)) } };
  throw new ProviderFailure("LOCK_LEASE_LOST", `credential leased by ${result.heldBy}`);
}

/** Records a granted lease's fence with the job before anything is done under it. */
async function granted(delivery: Delivery, result: LeaseGrant): Promise<{ ctx: JobContext }> {
  const { deps, job } = delivery;
  await deps.jobs.leaseGranted(job.id, result.fence);
  // The job that held the credential before lost its lease: its login is being replaced, so its browser session goes.
  await closeSession(delivery, result.supersededSessionId);
  return { ctx: { ...delivery, lease: result } };
}

/**
 * Runs `work` while renewing the lease, so a unit slower than the lease term keeps it. A renewal still on its way when
 * the work ends is waited for, so none reaches the lock after the delivery parked or handed on the lease.
 */
async function underLease<T>(ctx: JobContext, work: () => Promise<T>): Promise<T> {
  const { deps, lock, lease } = ctx;
  let renewing: Promise<unknown> = Promise.resolve();
  const timer = setInterval(() => {
    renewing = lock.renew(lease.fence, deps.leaseMs).catch(() => false);
  }, Math.max(deps.leaseMs / 3, MIN_RENEW_INTERVAL_MS));
  try {
    return await work();
  } finally {
    clearInterval(timer);
    await renewing;
  }
}

/** Renews the lease once more before acting on what was collected; a lapsed lease acts on nothing. */
async function stillLeased(ctx: JobContext): Promise<void> {
  if (!(await ctx.lock.renew(ctx.lease.fence, ctx.deps.leaseMs))) throw new ProviderFailure("LOCK_LEASE_LOST", "lease lapsed during the unit");
}

/**
 * Runs `work` on the job's scraper session, logging in only when there is none or the scraper lost it. A login its
 * holder approves on a phone shows on the job while it waits (`awaitingHolder`), and goes off it once work runs.
 */
async function withSession<T>(ctx: JobContext, work: (sessionId: string) => Promise<T>): Promise<T> {
  const scraper = ctx.deps.scraperFor(ctx.provider);
  const login = async () => {
    const { login: credential, businessNumber } = await credentialOf(ctx);
    if (credential.authMethod === "SIMPLE_AUTH") {
      const waitMs = await ctx.lock.holderAsk();
      if (waitMs > 0) throw new ProviderFailure("RATE_LIMITED", "the holder's phone was asked its hourly share already", Math.ceil(waitMs / 1000));
    }
    const opened = await scraper.openSession(ctx.provider.code, credential, businessNumber ?? undefined);
    if (!(await ctx.lock.rememberSession(ctx.lease.fence, opened.sessionId, opened.awaiting ? APPROVED_LOGIN_KEEP_MS : 0))) {
      await scraper.closeSession(opened.sessionId);
      throw new ProviderFailure("LOCK_LEASE_LOST", "lease lapsed during login");
    }
    ctx.lease = { ...ctx.lease, scraperSessionId: opened.sessionId };
    if (opened.awaiting) await holderAsked(ctx, opened.awaiting);
    return opened.sessionId;
  };
  const run = async (sessionId: string) => {
    try {
      // A login still waiting for its holder is asked first: work that calls the scraper for nothing (a plan with no
      // targets to find) must not take the job off its wait.
      if (ctx.job.awaitingHolder || ctx.holderAsked) {
        await scraper.ready(sessionId);
        await ctx.deps.jobs.holderApproved(ctx.job.id);
        ctx.job = { ...ctx.job, awaitingHolder: null };
        ctx.holderAsked = false;
      }
      return await work(sessionId);
    } catch (err) {
      if (err instanceof AwaitingHolder) await holderAsked(ctx, err.approval);
      throw err;
    }
  };
  return underLease(ctx, async () => {
    const sessionId = ctx.lease.scraperSessionId ?? (await login());
    try {
      return await run(sessionId);
    } catch (err) {
      if (!(err instanceof SessionGone)) throw err;
      return run(await login());
    }
  });
}

async function holderAsked(ctx: JobContext, approval: HolderApproval): Promise<void> {
  ctx.holderAsked = true;
  await ctx.deps.jobs.awaitingHolder(ctx.job.id, approval);
}

/** The provider's calendar says it is closed now, or closes before a job starting now would be done. */
class MaintenanceMet extends ProviderFailure {
  constructor(readonly window: MaintenanceWindow) {
    super("PROVIDER_TIME_WINDOW", `maintenance until ${new Date(window.endsAt).toISOString()}`);
  }
}

/** A target the job named that the institution does not show: its error lists what the institution does show. */
class TargetNotShown extends ProviderFailure {
  constructor(
    code: "INVALID_ACCOUNT_FOR_SERVICE" | "INVALID_CARD_FOR_SERVICE",
    missing: string[],
    readonly shown: string[],
  ) {
    super(code, `not found: ${missing.join(", ")}`);
  }
}

/** Applies the job's target params; asking for a target the institution does not show is an input error. */
function narrowTargets(ctx: JobContext, discovered: Target[]): Target[] {
  // The institution has nothing of this kind for the business (no account, no card): nothing a period could change.
  if (discovered.length === 0) throw new ProviderFailure("NO_DATA_AVAILABLE", `no ${ctx.schema.targets} at the institution`);
  const filterParam = ctx.schema.targetFilterParam;
  const wanted = filterParam ? (ctx.job.params[filterParam] as string[] | undefined) : undefined;
  let targets = discovered;
  if (wanted) {
    const shown = discovered.map((t) => t.id);
    const missing = notShown(wanted, shown);
    if (missing.length > 0) throw new TargetNotShown(ctx.schema.targets === "cards" ? "INVALID_CARD_FOR_SERVICE" : "INVALID_ACCOUNT_FOR_SERVICE", missing, shown);
    targets = discovered.filter((t) => wanted.some((w) => isSameTarget(t.id, w)));
  }
  const currency = ctx.job.params.currencyCode as string | undefined;
  return currency ? targets.filter((t) => t.attributes.currencyCode === currency) : targets;
}

function planUnits(ctx: JobContext, targets: Target[] | null): PlannedUnit[] {
  const segments = ctx.schema.datedRange
    ? splitRange(ctx.job.params.dateRangeStart as string, ctx.job.params.dateRangeEnd as string, unitWindowDays(ctx.provider, ctx.schema.id))
    : [null];
  if (targets === null) return segments.map((segment) => ({ target: null, segment }));
  return targets.flatMap((target) => segments.map((segment) => ({ target, segment })));
}

/** What a commit leaves to do: the next unit, or on the last one the job's end, which frees its login. */
async function carryOn(ctx: JobContext, continuation: Continuation): Promise<number | null> {
  if (continuation.finished) await closeJobSession(ctx);
  return continuation.next;
}

/** Fixes the job's units; returns the first unit to run, or null when there is nothing (more) to do. */
async function plan(ctx: JobContext): Promise<number | null> {
  const targets = await withSession(ctx, async (sessionId) => {
    const kind = ctx.schema.targets;
    if (!kind) return null;
    const discovered = await ctx.deps.scraperFor(ctx.provider).targets(sessionId, ctx.schema.id);
    if (ctx.job.credentialId) await ctx.deps.rememberTargets(ctx.job.credentialId, kind, discovered.map((t) => t.id));
    return narrowTargets(ctx, discovered);
  });
  await stillLeased(ctx);
  return carryOn(ctx, await ctx.deps.jobs.planned(ctx.job, planUnits(ctx, targets), ctx.lease.fence, ctx.deps.now()));
}

function validated(ctx: JobContext, records: RawRecord[]): Record<string, unknown>[] {
  return records.map((raw) => {
    const parsed = ctx.schema.record.safeParse({ schema: ctx.schema.id, ...raw });
    if (!parsed.success) throw new ProviderFailure("PROVIDER_RESPONSE_MALFORMED", `record failed ${ctx.schema.id}: ${parsed.error.issues[0]?.message}`);
    return parsed.data as Record<string, unknown>;
  });
}

/**
 * One task unit: collect on the job's session and validate. Its records wait
 * with the delivery's other collected units until they are committed together.
 */
async function collectUnit(ctx: JobContext, row: QueuedUnit, uncommitted: number): Promise<CollectedUnit> {
  // The plan's monthly steps are spent: the job ends here, its committed units stay served.
  if (await ctx.deps.jobs.stepCapReached(ctx.job, ctx.deps.now(), uncommitted)) throw new ProviderFailure("WORKSPACE_QUOTA_EXCEEDED", "monthly scraping steps used up");
  const unit: TaskUnit = {
    jobId: ctx.job.id,
    unitIndex: row.unitIndex,
    schema: ctx.schema.id,
    target: row.targetId === null ? null : { id: row.targetId, attributes: row.targetAttributes ?? {} },
    segment: row.segmentStart === null ? null : { start: row.segmentStart, end: row.segmentEnd! },
    params: ctx.job.params,
  };
  const records = await withSession(ctx, (sessionId) => ctx.deps.scraperFor(ctx.provider).collect(sessionId, unit, collectBoundMs(ctx.provider)));
  const valid = validated(ctx, records);
  // An empty list (accounts, cards) is the institution having none; an empty period is a valid answer of zero records.
  if (valid.length === 0 && !ctx.schema.datedRange) throw new ProviderFailure("NO_DATA_AVAILABLE", `no ${ctx.schema.id} records at the institution`);
  return { unitIndex: row.unitIndex, records: valid };
}

/**
 * Stores the collected units as one R2 object (a redelivery writes a new one),
 * then commits their counts and offsets under the lease's fence. Returns the
 * next unit when this delivery is the one that completed these units.
 */
async function commit(ctx: JobContext, pending: PendingUnits): Promise<number | null> {
  const units = pending.take();
  await stillLeased(ctx);
  const stored = await storeUnitResults(ctx.deps.results, ctx.job.id, ctx.schema.record, units);
  const continuation = await ctx.deps.jobs.unitsCommitted(ctx.job, stored, ctx.lease.fence, ctx.deps.now());
  pending.committed();
  return carryOn(ctx, continuation);
}

async function closeSession(delivery: Delivery, sessionId: string | null): Promise<void> {
  if (sessionId) await delivery.deps.scraperFor(delivery.provider).closeSession(sessionId);
}

/** The job is over: its lease ends, and its login with it or with the lease to the next job waiting. */
async function closeJobSession(delivery: Delivery): Promise<void> {
  await endLease(delivery.deps, delivery.lock, delivery.job.id, delivery.provider);
}

/** An error's stack for a log line, with the common redaction: its first line is the error's message. */
const redactedStack = (err: unknown): string | undefined => (err instanceof Error && typeof err.stack === "string" ? redactText(withoutQueryParams(err.stack)!) : undefined);

async function handleFailure(delivery: Delivery, ctx: JobContext | null, err: unknown): Promise<Outcome> {
  // An error may quote what the scraper answered (records, an institution's page): a log line keeps it redacted.
  if (!(err instanceof ProviderFailure)) log("error", "unhandled-error", { jobId: delivery.job.id, error: redactText(withoutQueryParams(String(err))!), stack: redactedStack(err) });
  const failure = err instanceof ProviderFailure ? err : new ProviderFailure("INTERNAL_ERROR", String(err));
  const error = jobError(failure.code, failure.retryAfterSeconds);
  if (failure instanceof TargetNotShown) error.message = `${error.message} 기관이 보여 주는 ${failure.code === "INVALID_CARD_FOR_SERVICE" ? "카드" : "계좌"}: ${shownList(failure.shown)}`;
  const { deps, job } = delivery;
  // A page the adapter could not read: operators get the page, each time, before the job's own outcome is decided.
  if (failure instanceof ReportedFailure) await deps.fileReport(delivery.provider.code, job.id, failure.report);
  // What the institution said, for operators to teach the adapter, redacted as its failure reports are (the scraper
  // redacts it already; a scraper of an older version does not); the partner sees only the catalog's message.
  if (error.code === "UNKNOWN") log("warn", "unknown-institution-message", { jobId: job.id, text: redactText(failure.message, redactionFor(delivery.provider.code)) });
  const window = failure instanceof MaintenanceMet ? failure.window : error.code === "PROVIDER_TIME_WINDOW" ? await deps.maintenanceMet(delivery.provider, deps.now(), 0) : null;
  if (window) {
    // A window the calendar knows: the job waits for its end where its deadline allows, else it ends now, not after retries that cannot help.
    const resumeAt = window.endsAt + AFTER_WINDOW_MS;
    if (resumeAt + RUN_ESTIMATE_MS <= job.deadlineAt) {
      await deps.jobs.maintenanceWait(job.id, resumeAt);
      return { kind: "retry", delaySeconds: Math.ceil((resumeAt - deps.now()) / 1000) };
    }
  } else if (WAITS_FOR_CAPACITY.has(error.code)) {
    const delaySeconds = Math.max(1, failure.retryAfterSeconds ?? 0) + Math.floor(deps.random() * 3);
    if (deps.now() + delaySeconds * 1000 < job.deadlineAt) return { kind: "retry", delaySeconds };
  } else if (error.retryable && !NOT_RESUMED.has(error.code)) {
    const attempt = await deps.jobs.resumed(job.id, deps.now());
    const delaySeconds = Math.max(backoffSeconds(attempt - 1, deps.retry.baseSeconds, deps.retry.maxSeconds, deps.random), failure.retryAfterSeconds ?? 0);
    if (attempt <= deps.retry.maxAttempts && deps.now() + delaySeconds * 1000 < job.deadlineAt) {
      // The institution ended the login: the next try must log in afresh.
      if (error.code === "SESSION_EXPIRED" && ctx) await closeSession(delivery, await ctx.lock.forgetSession(ctx.lease.fence));
      return { kind: "retry", delaySeconds };
    }
  }
  // An Open Banking token ended or refused: refreshed once for the job, which then logs in again with the new pair;
  // only a refresh KFTC refuses after the token's end ends the consent (pipeline/consent-refresh.ts).
  const renewal = error.code === "NO_VALID_CREDENTIAL" && job.credentialId && delivery.opened.sealed && deps.refreshConsent ? await deps.refreshConsent(job.credentialId, job.createdAt, delivery.opened.sealed) : null;
  if (renewal === "refreshed" || renewal === "newer") {
    if (ctx) await closeSession(delivery, await ctx.lock.forgetSession(ctx.lease.fence));
    return { kind: "retry", delaySeconds: 1 };
  }
  // Guarded by the secret this delivery opened; a session an earlier delivery logged in is refused unguarded.
  if (INVALIDATES_CREDENTIAL.has(error.code) && job.credentialId && (renewal === null || renewal === "ended")) await deps.invalidateCredential(job.credentialId, error.code, delivery.opened.sealed);
  if (await deps.jobs.failed(job, error, deps.now())) await closeJobSession(delivery);
  return ACK;
}
