import { findProvider, type ProviderDefinition } from "../catalog/providers";
import { findSchema, type SchemaDefinition } from "../catalog/schemas";
import { type JobErrorCode, jobError } from "../../collectors/job-failures";
import type { JobRow } from "../jobs/store";
import { type LoginCredential, ProviderFailure, type RawRecord, type Target, type TaskUnit } from "../../collectors/adapter";
import { storeUnitResults } from "../results/unit-results";
import { backoffSeconds } from "./backoff";
import type { PlannedUnit } from "./job-state";
import type { PipelineMessage } from "./messages";
import type { LockPort, Outcome, PipelineDeps } from "./ports";
import { SessionGone } from "./scraper-port";
import { splitRange } from "./segments";

const ACK: Outcome = { kind: "ack" };

// Transient, but retrying cannot help: another job owns the credential, or the budget is spent.
const NOT_RESUMED: ReadonlySet<JobErrorCode> = new Set(["LOCK_CONTENTION", "JOB_TIMEOUT", "PENDING_ORPHAN"]);

interface JobContext {
  deps: PipelineDeps;
  job: JobRow;
  provider: ProviderDefinition;
  schema: SchemaDefinition;
  lock: LockPort;
}

/**
 * Runs one pipeline message to an outcome: ack, or retry after a delay
 * (automatic resumption). After its own unit the message carries on with
 * the job's next units in the same invocation while `inlineBudgetMs` lasts,
 * then hands the chain on through the queue; every unit still commits on
 * its own, so a crash anywhere loses at most the unit in flight.
 */
export async function executeMessage(deps: PipelineDeps, message: PipelineMessage): Promise<Outcome> {
  const job = await deps.state.job(message.jobId);
  if (!job || job.status === "SUCCEEDED" || job.status === "FAILED") return ACK;
  const ctx: JobContext = {
    deps,
    job,
    provider: findProvider(job.providerCode)!,
    schema: findSchema(job.schema)!,
    lock: deps.lockFor(job.credentialId ?? "none"),
  };
  const started = deps.now();
  let current = message;
  try {
    if (deps.now() >= job.deadlineAt) throw new ProviderFailure("JOB_TIMEOUT");
    let next = message.type === "plan" ? await plan(ctx) : await runUnit(ctx, message.unitIndex);
    while (next !== null) {
      current = { type: "unit", jobId: job.id, workspaceId: job.workspaceId, unitIndex: next };
      if (deps.now() - started >= deps.inlineBudgetMs) {
        await deps.enqueue(current);
        return ACK;
      }
      if (deps.now() >= job.deadlineAt) throw new ProviderFailure("JOB_TIMEOUT");
      next = await runUnit(ctx, next);
    }
    return ACK;
  } catch (err) {
    const outcome = await handleFailure(ctx, err);
    // A unit reached inline has no message of its own to redeliver: it gets one, and this message is done.
    if (outcome.kind === "retry" && current !== message) {
      await deps.enqueue(current, outcome.delaySeconds);
      return ACK;
    }
    return outcome;
  }
}

async function credentialOf(ctx: JobContext): Promise<LoginCredential> {
  const credential = ctx.job.credentialId ? await ctx.deps.loadCredential(ctx.job.credentialId) : null;
  if (!credential) throw new ProviderFailure("CREDENTIAL_NOT_FOUND");
  return credential;
}

/** Runs `work` on the job's scraper session, logging in only when there is none or the scraper lost it. */
async function withSession<T>(ctx: JobContext, known: string | null, work: (sessionId: string) => Promise<T>): Promise<T> {
  const scraper = ctx.deps.scraperFor(ctx.provider);
  const login = async () => {
    const sessionId = await scraper.openSession(ctx.provider.code, await credentialOf(ctx));
    await ctx.lock.rememberSession(ctx.job.id, sessionId);
    return sessionId;
  };
  const sessionId = known ?? (await login());
  try {
    return await work(sessionId);
  } catch (err) {
    if (!(err instanceof SessionGone)) throw err;
    return work(await login());
  }
}

const digits = (s: string) => s.replace(/\D/g, "");

/** Applies the job's target params; asking for a target the institution does not show is an input error. */
function narrowTargets(ctx: JobContext, discovered: Target[]): Target[] {
  const filterParam = ctx.schema.targetFilterParam;
  const wanted = filterParam ? (ctx.job.params[filterParam] as string[] | undefined) : undefined;
  let targets = discovered;
  if (wanted) {
    const missing = wanted.filter((w) => !discovered.some((t) => digits(t.id) === digits(w) || t.id === w));
    if (missing.length > 0) throw new ProviderFailure(ctx.schema.targets === "cards" ? "INVALID_CARD_FOR_SERVICE" : "INVALID_ACCOUNT_FOR_SERVICE", `not found: ${missing.join(", ")}`);
    targets = discovered.filter((t) => wanted.some((w) => digits(t.id) === digits(w) || t.id === w));
  }
  const currency = ctx.job.params.currencyCode as string | undefined;
  return currency ? targets.filter((t) => t.attributes.currencyCode === currency) : targets;
}

function planUnits(ctx: JobContext, targets: Target[] | null): PlannedUnit[] {
  const segments = ctx.schema.datedRange
    ? splitRange(ctx.job.params.dateRangeStart as string, ctx.job.params.dateRangeEnd as string, ctx.provider.pageWindowDays)
    : [null];
  if (targets === null) return segments.map((segment) => ({ target: null, segment }));
  return targets.flatMap((target) => segments.map((segment) => ({ target, segment })));
}

async function acquireLease(ctx: JobContext, lostCode: JobErrorCode) {
  const lease = await ctx.lock.acquire(ctx.job.id, ctx.deps.leaseMs);
  if (!lease.granted) throw new ProviderFailure(lostCode, `credential leased by ${lease.heldBy}`);
  return lease;
}

/** Fixes the job's units; returns the first unit to run, or null when there is nothing (more) to do. */
async function plan(ctx: JobContext): Promise<number | null> {
  if (ctx.job.status !== "PENDING") return null;
  await credentialOf(ctx);
  const lease = await acquireLease(ctx, "LOCK_CONTENTION");
  const targets = await withSession(ctx, lease.scraperSessionId, async (sessionId) =>
    ctx.schema.targets ? narrowTargets(ctx, await ctx.deps.scraperFor(ctx.provider).targets(sessionId, ctx.schema.id)) : null,
  );
  const units = planUnits(ctx, targets);
  const now = ctx.deps.now();
  const planned = await ctx.deps.state.markPlanned(ctx.job.id, units, now);
  if (!planned) return null;
  await ctx.deps.publish(planned);
  if (units.length === 0) {
    await finish(ctx);
    return null;
  }
  return 0;
}

function validated(ctx: JobContext, records: RawRecord[]): Record<string, unknown>[] {
  return records.map((raw) => {
    const parsed = ctx.schema.record.safeParse({ schema: ctx.schema.id, ...raw });
    if (!parsed.success) throw new ProviderFailure("PROVIDER_RESPONSE_MALFORMED", `record failed ${ctx.schema.id}: ${parsed.error.issues[0]?.message}`);
    return parsed.data as Record<string, unknown>;
  });
}

/**
 * One task unit: collect on the job's session, validate, store the unit's R2
 * objects (a redelivery overwrites them), then commit the count and hand on
 * to the next unit. Units of a job run as a chain, one at a time. Returns
 * the next unit when this delivery is the one that completed this unit.
 */
async function runUnit(ctx: JobContext, unitIndex: number): Promise<number | null> {
  const [row, lease] = await Promise.all([ctx.deps.state.unit(ctx.job.id, unitIndex), acquireLease(ctx, "LOCK_LEASE_LOST")]);
  if (!row || row.status === "DONE") return null;
  const unit: TaskUnit = {
    jobId: ctx.job.id,
    unitIndex,
    schema: ctx.schema.id,
    target: row.targetId === null ? null : { id: row.targetId, attributes: row.targetAttributes ?? {} },
    segment: row.segmentStart === null ? null : { start: row.segmentStart, end: row.segmentEnd! },
    params: ctx.job.params,
  };
  const records = await withSession(ctx, lease.scraperSessionId, (sessionId) => ctx.deps.scraperFor(ctx.provider).collect(sessionId, unit));
  const valid = validated(ctx, records);
  // The lease may have run out while the institution was slow; another job may now own the login.
  if (!(await ctx.lock.holds(ctx.job.id))) throw new ProviderFailure("LOCK_LEASE_LOST");
  await storeUnitResults(ctx.deps.results, ctx.job.id, unitIndex, ctx.schema.record, valid);
  const { flipped, job, next } = await ctx.deps.state.completeUnit(ctx.job.id, unitIndex, records.length, ctx.deps.now());
  // The sweep may have ended the job meanwhile: then nothing more is collected for it.
  if (job?.status !== "RUNNING") return null;
  if (flipped) await ctx.deps.publish(job);
  if (job.completedTaskCount >= job.totalTaskCount) {
    await finish(ctx);
    return null;
  }
  return flipped ? next : null;
}

async function closeSession(ctx: JobContext, sessionId: string | null): Promise<void> {
  if (sessionId) await ctx.deps.scraperFor(ctx.provider).closeSession(sessionId);
}

async function closeJobSession(ctx: JobContext): Promise<void> {
  await closeSession(ctx, await ctx.lock.release(ctx.job.id));
}

async function finish(ctx: JobContext): Promise<void> {
  const done = await ctx.deps.state.succeed(ctx.job.id, ctx.deps.now());
  if (done) await ctx.deps.publish(done);
  await closeJobSession(ctx);
}

async function handleFailure(ctx: JobContext, err: unknown): Promise<Outcome> {
  if (!(err instanceof ProviderFailure)) console.error(JSON.stringify({ jobId: ctx.job.id, error: String(err), stack: (err as Error)?.stack }));
  const failure = err instanceof ProviderFailure ? err : new ProviderFailure("INTERNAL_ERROR", String(err));
  const error = jobError(failure.code, failure.retryAfterSeconds);
  const { deps, job } = ctx;
  if (error.retryable && !NOT_RESUMED.has(error.code)) {
    const attempt = await deps.state.recordAttempt(job.id, deps.now());
    const delaySeconds = Math.max(backoffSeconds(attempt - 1, deps.retry.baseSeconds, deps.retry.maxSeconds, deps.random), failure.retryAfterSeconds ?? 0);
    if (attempt <= deps.retry.maxAttempts && deps.now() + delaySeconds * 1000 < job.deadlineAt) {
      // The institution ended the login: the next try must log in afresh.
      if (error.code === "SESSION_EXPIRED") await closeSession(ctx, await ctx.lock.forgetSession(job.id));
      return { kind: "retry", delaySeconds };
    }
  }
  const failed = await deps.state.fail(job.id, error, deps.now());
  if (failed) {
    await deps.publish(failed);
    await closeJobSession(ctx);
  }
  return ACK;
}
