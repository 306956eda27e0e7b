import { chooseJobCredential } from "../credentials/choose";
import { assertConsentCovers } from "../credentials/consent";
import { canonicalJson } from "../../platform/lib/canonical-json";
import { assertAccountsShown } from "../credentials/targets";
import { ApiError } from "../../platform/errors/api-error";
import { jobError } from "../../../contracts/job-failures";
import { sha256Hex } from "../../platform/lib/crypto";
import { waitBudgetSeconds } from "./budget";
import { kstMonthBounds, secondsUntilNextMonth } from "./kst-month";
import { type JobRequest, validateJobRequest } from "../catalog/job-request";
import { runsOnDeploymentKey } from "../catalog/providers";
import { type CreateContext, createContext } from "./create-context";
import { jobEnded } from "./events";
import type { JobsEnv } from "./lifecycle";
import { planMessage } from "./messages";
import { sinceBase } from "./since";
import { type CapWindow, type Idempotency, type InsertOutcome, insertJob, type JobRow, type NewJob } from "./store";
import { monthlyStepsLeft } from "./step-cap";
import { recipientsOf } from "../workspaces/recipients";
import { assertOpenTo } from "../workspaces/provider-access";
import { jobBillingOf } from "../workspaces/job-billing";
import { DAY_MS, retentionOf } from "../workspaces/results-retention";
import { assertNotPastDue } from "../workspaces/past-due";
import { usableRoute } from "../deliveries/store";
import { isolateOutbox } from "../../platform/lib/isolate-outbox";
import { log } from "../../platform/observability/telemetry";

export interface CreateJobInput {
  providerCode: string;
  schema: string;
  params?: Record<string, unknown>;
  /** The credential to log in with; without it, the provider's only or default one (domain/credentials/choose.ts). */
  credentialId?: string;
  /** Where its results go once it succeeds: a route of the workspace or of the partner acting for it (worker/domain/deliveries/). */
  deliveryRouteId?: string;
}

/** Hands work that need not hold up a create's answer to the runtime (the API's waitUntil); without it, the create awaits it. */
export type AfterAnswer = (work: Promise<unknown>) => void;

// A job usually finishes within minutes: a slot is worth asking for again soon.
const CONCURRENCY_RETRY_SECONDS = 60;

/** What an Idempotency-Key is bound to; a request naming no credential hashes as it did before credentialId existed. */
function idempotentRequest(input: CreateJobInput) {
  const request = { providerCode: input.providerCode, schema: input.schema, params: input.params ?? {} };
  return { ...request, ...(input.credentialId ? { credentialId: input.credentialId } : {}), ...(input.deliveryRouteId ? { deliveryRouteId: input.deliveryRouteId } : {}) };
}

/** A send that fails is logged with the jobs it carried; they stay PENDING and the sweep sends their plans again. */
async function sendPlans(queue: JobsEnv["TASKS"], rows: JobRow[]): Promise<void> {
  try {
    await queue.sendBatch(rows.map((row) => ({ body: planMessage(row) })));
  } catch (err) {
    log("error", "plan-send-failed", { jobIds: rows.map((row) => row.id), error: String(err) });
  }
}

/**
 * How long an isolate gathers its API creates' plans before one sendBatch takes them all (platform/lib/isolate-outbox.ts):
 * a send each took some 2.5 ms of the machine's 9 a create under load (docs/benchmarks.md, stop 71). A sendBatch carries at most
 * 100 messages; a plan message is some 100 bytes, far within its 256 KB.
 */
export const PLAN_GATHER_MS = 50;
const MAX_PLANS_PER_BATCH = 100;
const gatheredPlans = isolateOutbox<JobsEnv["TASKS"], JobRow>(PLAN_GATHER_MS, async (queue, rows) => {
  for (let start = 0; start < rows.length; start += MAX_PLANS_PER_BATCH) await sendPlans(queue, rows.slice(start, start + MAX_PLANS_PER_BATCH));
});

/**
 * Enqueues a PENDING job's planning. The job row is committed by then, so a send that fails does not fail the request
 * (a client without an Idempotency-Key would only create the job twice): the job stays PENDING, the sweep sends its
 * plan again, and so does a replay of the request. An API create's plan is sent after its answer (its caller does not
 * wait on the queue's round trip), gathered with the isolate's others; a schedule's run or an operator's retry awaits
 * its own send.
 */
async function enqueuePlan(env: JobsEnv, row: JobRow, afterAnswer: AfterAnswer | undefined): Promise<void> {
  if (row.status !== "PENDING") return;
  if (afterAnswer) afterAnswer(gatheredPlans(env.TASKS, row));
  else await sendPlans(env.TASKS, [row]);
}

/**
 * The job's first transition: records it and, when it has a credential,
 * enqueues its planning. Without a credential the job is born Failed (a
 * job-level outcome, not an HTTP error). It leaves the job board alone: the
 * first read of the job fills it from D1 (domain/jobs/board.ts), and planning,
 * which usually comes before that read, publishes anyway; so a create saves
 * a write to the board that all of a workspace's creates share. A replay of a job
 * still PENDING enqueues its planning again, in case the first plan message
 * was lost; planning twice is harmless, since the executor ignores a plan
 * once the job left PENDING and the credential lease turns a concurrent one away.
 */
export async function createJob(
  env: JobsEnv,
  workspaceId: string,
  input: CreateJobInput,
  idempotencyKey?: string,
  run: { scheduleId: string; scheduledFor: number } | null = null,
  afterAnswer?: AfterAnswer,
): Promise<JobRow> {
  const request = validateJobRequest(input);
  const idem = idempotencyKey
    ? { key: idempotencyKey, requestHash: await sha256Hex(canonicalJson(idempotentRequest(input))) }
    : undefined;
  for (let fresh = false; ; fresh = true) {
    const context = await createContext(env.DB, workspaceId, request.provider, input.credentialId, fresh);
    const outcome = await decideAndInsert(env, workspaceId, request, input, idem, run, context);
    const now = Date.now();
    switch (outcome.kind) {
      case "STALE":
        // Only a kept context answers STALE, and a fresh one replaces it: this goes round once at most.
        continue;
      case "KEY_CONFLICT":
        throw new ApiError("IDEMPOTENCY_KEY_CONFLICT");
      case "CAP_REACHED":
        throw new ApiError("FREE_PLAN_JOB_CAP_REACHED", { headers: { "Retry-After": String(secondsUntilNextMonth(now)) } });
      case "TOO_MANY_UNFINISHED":
        throw new ApiError("TOO_MANY_CONCURRENT_WORKERS", { headers: { "Retry-After": String(CONCURRENCY_RETRY_SECONDS) } });
      case "REPLAYED":
        await enqueuePlan(env, outcome.row, afterAnswer);
        return outcome.row;
      case "CREATED":
        // A job born Failed (no credential) ends here: its event is announced now, once.
        await Promise.all([enqueuePlan(env, outcome.row, afterAnswer), jobEnded(env, outcome.row, context.failedJobSubscribers)]);
        return outcome.row;
    }
  }
}

/**
 * Inserts the job its create context decides. A kept context's insert commits only at the revisions it was read at,
 * and a kept context never refuses: a refusal reaches no insert to check them, so it answers STALE and the create
 * decides again from a fresh read. A fresh read inserts as directly as a read then an insert always did.
 */
async function decideAndInsert(
  env: JobsEnv,
  workspaceId: string,
  request: JobRequest,
  input: CreateJobInput,
  idem: Idempotency | undefined,
  run: { scheduleId: string; scheduledFor: number } | null,
  context: CreateContext,
): Promise<InsertOutcome> {
  let decided: { job: NewJob; cap: CapWindow };
  try {
    decided = await decide(env, workspaceId, request, input, run, context);
  } catch (err) {
    if (context.kept) return { kind: "STALE" };
    throw err;
  }
  return insertJob(env.DB, decided.job, decided.cap, idem);
}

/** The job a create records and the limits its insert checks, or the refusal (an ApiError) of the request. */
async function decide(
  env: JobsEnv,
  workspaceId: string,
  request: JobRequest,
  input: CreateJobInput,
  run: { scheduleId: string; scheduledFor: number } | null,
  context: CreateContext,
): Promise<{ job: NewJob; cap: CapWindow }> {
  const now = Date.now();
  const billing = jobBillingOf(context.billing, workspaceId);
  assertNotPastDue(billing.pastDueSince, now);
  // Before the credential: a provider on the deployment's key has none to be refused for.
  assertOpenTo(Boolean(context.billing?.sandboxOnly), request.provider);
  // A provider on the deployment's key runs with no credential; naming one is refused as naming another provider's is.
  const keyed = runsOnDeploymentKey(request.provider);
  const chosen = keyed && !input.credentialId ? null : chooseJobCredential(context.candidates, request.provider, input.credentialId, now, env.VAULT_MASTER_KEY);
  if (chosen) assertConsentCovers(chosen.schemas === null ? null : JSON.parse(chosen.schemas), request.schema.id);
  assertAccountsShown(request.schema, request.params, chosen?.knownTargets ? JSON.parse(chosen.knownTargets) : null);
  const credentialId = chosen?.id ?? null;
  const base = await sinceBase(env.DB, workspaceId, request.schema, request.params, credentialId);
  const route = input.deliveryRouteId ? await usableRoute(env.DB, input.deliveryRouteId, recipientsOf(workspaceId, billing.billingWorkspaceId)) : null;
  const stepsLeft = await monthlyStepsLeft(env.DB, billing, now);
  if (stepsLeft !== null && stepsLeft <= 0) throw new ApiError("FREE_PLAN_TASK_CAP_REACHED", { headers: { "Retry-After": String(secondsUntilNextMonth(now)) } });
  return {
    job: {
      id: crypto.randomUUID(),
      workspaceId,
      billingWorkspaceId: billing.billingWorkspaceId,
      providerCode: request.provider.code,
      schema: request.schema.id,
      params: request.params,
      credentialId,
      sinceJobId: base?.id ?? null,
      scheduleId: run?.scheduleId ?? null,
      scheduledFor: run?.scheduledFor ?? null,
      deliveryRouteId: route?.id ?? null,
      status: credentialId || keyed ? "PENDING" : "FAILED",
      error: credentialId || keyed ? null : jobError("CREDENTIAL_NOT_FOUND"),
      createdAt: now,
      deadlineAt: now + waitBudgetSeconds(request.provider, request.schema, request.params, chosen?.authMethod) * 1000,
      resultsExpireAt: credentialId || keyed ? null : now + retentionOf(context.billing).days * DAY_MS,
    },
    cap: { cap: billing.monthlyJobCap, monthStart: kstMonthBounds(now).start, concurrentJobs: billing.concurrentJobs, concurrentScheduledJobs: billing.concurrentScheduledJobs, revisions: context.kept ? context.revisions : null },
  };
}
