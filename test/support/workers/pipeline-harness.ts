import { env } from "cloudflare:workers";
import { createJob, PLAN_GATHER_MS } from "../../../worker/domain/jobs/create";
import { finishedUnits } from "../../../worker/domain/jobs/results-rows";
import { recordLineBatches } from "../../../worker/domain/results/record-lines";
import { pipelineDeps } from "../../../worker/domain/pipeline/deps";
import type { PipelineMessage } from "../../../worker/domain/jobs/messages";
import { executeMessage } from "../../../worker/domain/pipeline/executor";
import type { Outcome, PipelineDeps } from "../../../worker/domain/pipeline/ports";
import { addCredential, createWorkspace, withCapturedQueue } from "./helpers";

export const RANGE = { dateRangeStart: "2026-02-01", dateRangeEnd: "2026-03-31" };

/**
 * Real D1, R2, lock DO and scraper; only the queue hand-off is captured so each step is explicit.
 * `logins()` counts the sessions this harness's executor opened: the scraper serves test files running side by
 * side, so its own count would include theirs.
 */
export function harness(overrides: Partial<PipelineDeps> = {}) {
  const queue = withCapturedQueue();
  const queued = queue.sent;
  let logins = 0;
  const defaults = pipelineDeps(queue.env);
  const deps: PipelineDeps = {
    ...defaults,
    retry: { baseSeconds: 0, maxSeconds: 0, maxAttempts: 2 },
    // Every unit through the queue, so each step is visible; inline continuation has its own tests.
    inlineBudgetMs: 0,
    ...overrides,
  };
  const scraperFor = deps.scraperFor;
  deps.scraperFor = (provider) => {
    const scraper = scraperFor(provider);
    return {
      openSession: (...args) => {
        logins++;
        return scraper.openSession(...args);
      },
      ready: (...args) => scraper.ready(...args),
      targets: (...args) => scraper.targets(...args),
      collect: (...args) => scraper.collect(...args),
      closeSession: (...args) => scraper.closeSession(...args),
    };
  };
  /** An API create's plan reaches the queue once its isolate's gathering ends (domain/jobs/create.ts), after the answer. */
  const plansSent = () => new Promise((resolve) => setTimeout(resolve, PLAN_GATHER_MS));
  const drain = async () => {
    await plansSent();
    const outcomes: Outcome[] = [];
    while (queued.length) {
      const message = queued.shift()!;
      const outcome = await executeMessage(deps, message);
      outcomes.push(outcome);
      if (outcome.kind === "retry") queued.push(message);
    }
    return outcomes;
  };
  /**
   * Runs one message until the executor acknowledges it, as the queue would redeliver it, under the default lease
   * term: the steps before the one under test need no short lease, which could lapse on a loaded machine.
   */
  const settle = async (message: PipelineMessage) => {
    const unhurried = { ...deps, leaseMs: defaults.leaseMs };
    let outcome = await executeMessage(unhurried, message);
    while (outcome.kind === "retry") {
      const delayMs = outcome.delaySeconds * 1000;
      await new Promise((r) => setTimeout(r, delayMs));
      outcome = await executeMessage(unhurried, message);
    }
  };
  /** Settles every queued message in turn, those they enqueue included: the rest of a job after the step under test. */
  const settleAll = async () => {
    await plansSent();
    while (queued.length) await settle(queued.shift()!);
  };
  // `env`: the bindings whose queue is this harness's, for jobs created through the API (helpers.ts `call`).
  return { deps, env: queue.env, queued, plansSent, drain, settle, settleAll, logins: () => logins };
}

export async function newJob(params: Record<string, unknown> = RANGE, schema = "bank.transactions.cb.v1", login?: { loginId: string; password: string }) {
  const ws = await createWorkspace();
  const credentialId = await addCredential(ws.workspaceId, "sandbox.bank", login ? { authMethod: "PROVIDER_LOGIN", ...login } : undefined);
  const queue = withCapturedQueue();
  const row = await createJob(queue.env, ws.workspaceId, { providerCode: "sandbox.bank", schema, params });
  return { ws, credentialId, job: row, plan: queue.sent[0]! };
}

export async function jobRow(id: string) {
  return env.DB.prepare("SELECT status, completed_task_count, total_task_count, record_count, error FROM jobs WHERE id = ?").bind(id).first<Record<string, any>>();
}

/** The records of a job's committed units, read from their R2 objects at the offsets their commits recorded. */
export async function committedRecords(jobId: string): Promise<Record<string, unknown>[]> {
  const records: Record<string, unknown>[] = [];
  for await (const lines of recordLineBatches(env.RESULTS, jobId, (await finishedUnits(env.DB, jobId)).units)) records.push(...lines.map((l) => JSON.parse(l)));
  return records;
}
