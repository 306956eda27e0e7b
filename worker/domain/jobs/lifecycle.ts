import { and, eq, inArray, isNull, lt, or, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { ProviderFailure } from "../../../collectors/adapter";
import type { DateSegment, HolderApproval, Target } from "../../../contracts/task-unit";
import type { JobError } from "../../../contracts/job-failures";
import { eraseSupersededSecret } from "../credentials/retirement";
import { database } from "../../platform/database/client";
import { type CommittedUnit, jobPlans, jobs, type PlanEntry, taskUnits } from "./tables";
import { committedAmong, committedCount, committedRecords, entryPath } from "./plan-commits";
import { storeChanges } from "../results/changes";
import type { FinishedUnit } from "../results/unit-results";
import { jobBilling } from "../workspaces/job-billing";
import { publishJob } from "./board";
import { resultsExpiry } from "../results/job-results";
import { jobEnded } from "./events";
import { emitEvent } from "../webhooks/emit";
import { jobView, pollIntervalMs } from "./views";
import { monthlyStepsLeft } from "./step-cap";
import { type PipelineMessage, type PipelineQueue, planMessage, unitMessage } from "./messages";
import { finishedUnits } from "./results-rows";
import { findJobById, findUnit, hasActiveJob, type JobRow, nextQueuedUnit, queuedUnitAfter, type QueuedUnit } from "./store";

export type JobsEnv = Pick<
  Env,
  "DB" | "JOB_BOARD" | "WEBHOOKS" | "VAULT_MASTER_KEY" | "RESULTS" | "SCHEDULE_ALARMS" | "ALERT_DESKS" | "PROVIDER_PULSES" | "DELIVERIES" | "SUGGESTED_POLL_INTERVAL_MS"
> &
  PipelineQueue;

export interface PlannedUnit {
  target: Target | null;
  segment: DateSegment | null;
}

/** What a commit leaves to do: the next unit to run, or nothing; `finished` when it succeeded the job. */
export interface Continuation {
  next: number | null;
  finished: boolean;
}

const NOTHING: Continuation = { next: null, finished: false };
const FINISHED: Continuation = { next: null, finished: true };

/**
 * A commit is valid only under the newest lease fence granted on the job's
 * credential: a delivery whose lease lapsed and was granted again (to
 * another job, or to another delivery of this one) can no longer write.
 */
const underFence = (jobId: string, credentialId: string | null, fence: number) =>
  sql`(SELECT lease_fence FROM jobs WHERE id = ${jobId}) = ${fence}
      AND NOT EXISTS (SELECT 1 FROM jobs WHERE credential_id = ${credentialId} AND lease_fence > ${fence})`;

const leaseLost = (jobId: string) => new ProviderFailure("LOCK_LEASE_LOST", `a newer lease fence exists for job ${jobId}`);

/**
 * The pipeline's job transitions. Each writes D1 conditionally (so a
 * redelivered message changes nothing twice), then shows the new row to
 * pollers and enqueues what follows: callers never publish or build messages.
 */
export class JobLifecycle {
  constructor(private readonly env: JobsEnv) {}

  job(jobId: string): Promise<JobRow | null> {
    return findJobById(this.env.DB, jobId);
  }

  unit(jobId: string, unitIndex: number): Promise<QueuedUnit | null> {
    return findUnit(this.env.DB, jobId, unitIndex);
  }

  queuedUnitAfter(jobId: string, unitIndex: number): Promise<QueuedUnit | null> {
    return queuedUnitAfter(this.env.DB, jobId, unitIndex);
  }

  private async send(message: PipelineMessage, delaySeconds?: number): Promise<void> {
    await this.env.TASKS.send(message, delaySeconds ? { delaySeconds } : undefined);
  }

  /** Records the fence of a lease granted to the job, before anything is done under it. */
  async leaseGranted(jobId: string, fence: number): Promise<void> {
    await database(this.env.DB)
      .update(jobs)
      .set({ leaseFence: fence, queuePosition: null, resumesAt: null })
      .where(and(eq(jobs.id, jobId), lt(jobs.leaseFence, fence)));
  }

  /** A job waits out its provider's maintenance window: pollers see until when. */
  async maintenanceWait(jobId: string, resumesAt: number): Promise<void> {
    const [row] = await database(this.env.DB)
      .update(jobs)
      .set({ resumesAt })
      .where(and(eq(jobs.id, jobId), inArray(jobs.status, ["PENDING", "RUNNING"])))
      .returning();
    if (row) await publishJob(this.env, row);
  }

  /**
   * The job's login waits for its holder to approve it on their phone (간편인증): pollers see the app and until when,
   * and the workspace's endpoints hear `data_job.awaiting_holder` once for each request to the phone (`since`).
   */
  async awaitingHolder(jobId: string, approval: HolderApproval): Promise<void> {
    const [row] = await database(this.env.DB)
      .update(jobs)
      .set({ awaitingHolder: approval })
      .where(and(eq(jobs.id, jobId), inArray(jobs.status, ["PENDING", "RUNNING"]), sql`coalesce(json_extract(${jobs.awaitingHolder}, '$.since'), '') <> ${approval.since}`))
      .returning();
    if (!row) return;
    await publishJob(this.env, row);
    await emitEvent(this.env, { type: "data_job.awaiting_holder", workspaceId: row.workspaceId, billingWorkspaceId: row.billingWorkspaceId ?? undefined, object: jobView(row, pollIntervalMs(this.env)) });
  }

  /** The holder approved: the job goes on, and pollers no longer see it waiting. */
  async holderApproved(jobId: string): Promise<void> {
    const [row] = await database(this.env.DB)
      .update(jobs)
      .set({ awaitingHolder: null })
      .where(and(eq(jobs.id, jobId), sql`${jobs.awaitingHolder} IS NOT NULL`))
      .returning();
    if (row) await publishJob(this.env, row);
  }

  /** Sends a delivery's message again after `delaySeconds`, as a new message: a wait that is no failure spends none of the queue's retries. */
  async resend(message: PipelineMessage, delaySeconds: number): Promise<void> {
    await this.send(message, delaySeconds);
  }

  /** A job waits for its credential behind `position` others: pollers see its place (written only when it moved). */
  async waiting(jobId: string, position: number): Promise<void> {
    const [row] = await database(this.env.DB)
      .update(jobs)
      .set({ queuePosition: position })
      .where(and(eq(jobs.id, jobId), eq(jobs.status, "PENDING"), sql`${jobs.queuePosition} IS NOT ${position}`))
      .returning();
    if (row) await publishJob(this.env, row);
  }

  private placed(jobId: string, position: number) {
    return database(this.env.DB).update(jobs).set({ queuePosition: position }).where(and(eq(jobs.id, jobId), eq(jobs.status, "PENDING")));
  }

  /**
   * The credential's line moved on: the job handed the lease is woken (its plan sent now, not at its own
   * re-check), and the jobs behind it are shown their new places.
   */
  async lineMoved(handedTo: string | null, waiting: string[]): Promise<void> {
    const places: [string, number][] = [...(handedTo ? [[handedTo, 0] as [string, number]] : []), ...waiting.map((id, i): [string, number] => [id, i + 1])];
    const [first, ...rest] = places.map(([id, position]) => this.placed(id, position).returning());
    if (!first) return;
    const moved = (await database(this.env.DB).batch([first, ...rest])).map(([row]) => row);
    if (handedTo && moved[0]) await this.send(planMessage(moved[0]));
    await Promise.all(moved.map((row) => row && publishJob(this.env, row)));
  }

  /**
   * Stores the plan (one row, the units' entries in order) and moves PENDING to RUNNING in one transaction. The plan
   * goes in only with the move and is keyed by the job, so a second planning delivery writes nothing. Continues with
   * the first unit; nothing when another delivery planned first; finished when there is nothing to collect.
   */
  async planned(job: JobRow, units: PlannedUnit[], fence: number, now: number): Promise<Continuation> {
    const db = database(this.env.DB);
    const entries: PlanEntry[] = units.map((u) => ({
      targetId: u.target?.id ?? null,
      targetAttributes: u.target?.attributes ?? null,
      segmentStart: u.segment?.start ?? null,
      segmentEnd: u.segment?.end ?? null,
    }));
    const move = db
      .update(jobs)
      .set({ status: "RUNNING", totalTaskCount: units.length, updatedAt: now })
      .where(and(eq(jobs.id, job.id), eq(jobs.status, "PENDING"), underFence(job.id, job.credentialId, fence)))
      .returning();
    // After the move, and only where it moved the job: a delivery that lost its fence leaves no plan behind.
    const plan = db
      .insert(jobPlans)
      .select(db.select({ jobId: jobs.id, units: sql<string>`${JSON.stringify(entries)}`.as("units") }).from(jobs).where(and(eq(jobs.id, job.id), eq(jobs.status, "RUNNING"), eq(jobs.updatedAt, now))))
      .onConflictDoNothing();
    const [moved] = units.length > 0 ? await db.batch([move, plan]) : [await move];
    const planned = moved[0];
    if (!planned) {
      // Still PENDING: not planned elsewhere, so this delivery lost its fence.
      if ((await findJobById(this.env.DB, job.id))?.status === "PENDING") throw leaseLost(job.id);
      return NOTHING;
    }
    await publishJob(this.env, planned);
    if (units.length === 0) {
      await this.succeeded(planned, now);
      return FINISHED;
    }
    return { next: 0, finished: false };
  }

  /**
   * Commits units stored together under the delivery's fence, in one transaction: marks each unit's plan entry
   * committed, with its record count, where its stored bytes lie and when (one row written, whatever the units; a job
   * planned before drizzle/0051 has no plan, and its QUEUED rows are updated DONE instead), and recomputes the job's
   * counters from its committed units, so a redelivered unit cannot count twice. Continues with the next unit when
   * this delivery completed these and more remain; the last unit succeeds the job.
   */
  async unitsCommitted(job: JobRow, units: FinishedUnit[], fence: number, now: number): Promise<Continuation> {
    const db = database(this.env.DB);
    const indexes = units.map((unit) => unit.unitIndex);
    const stored = (unit: FinishedUnit) => ({
      recordCount: unit.recordCount,
      resultId: unit.resultId,
      resultUnit: unit.resultUnit,
      jsonOffset: unit.jsonOffset,
      jsonEnd: unit.jsonEnd,
      csvOffset: unit.csvOffset,
      csvEnd: unit.csvEnd,
    });
    // A unit's mark once set stays (coalesce): a unit committed twice keeps its first commit, as its row's conflict
    // kept it. A unit with a DONE row (committed before stop 68) is never marked as well: the commit writes nothing then.
    const marks = units.flatMap((unit) => {
      const path = entryPath(unit.unitIndex, "committed");
      const mark: CommittedUnit = { ...stored(unit), at: now };
      return [sql`${path}`, sql`json(coalesce(json_extract(${jobPlans.units}, ${path}), ${JSON.stringify(mark)}))`];
    });
    const intoPlan = db
      .update(jobPlans)
      .set({ units: sql`json_set(${jobPlans.units}, ${sql.join(marks, sql`, `)})` })
      .where(
        and(
          eq(jobPlans.jobId, job.id),
          underFence(job.id, job.credentialId, fence),
          or(...indexes.map((i) => sql`json_type(${jobPlans.units}, ${entryPath(i, "committed")}) IS NULL`)),
          sql`NOT EXISTS (SELECT 1 FROM task_units WHERE job_id = ${job.id} AND unit_index IN ${indexes} AND status = 'DONE')`,
        ),
      )
      .returning({ jobId: jobPlans.jobId });
    // A job with a plan has no QUEUED rows: these write nothing for it.
    const intoRows = units.map((unit) =>
      db
        .update(taskUnits)
        .set({ status: "DONE", ...stored(unit), updatedAt: now })
        .where(and(eq(taskUnits.jobId, job.id), eq(taskUnits.unitIndex, unit.unitIndex), eq(taskUnits.status, "QUEUED"), underFence(job.id, job.credentialId, fence)))
        .returning({ unitIndex: taskUnits.unitIndex }),
    );
    const counters = db
      .update(jobs)
      .set({ completedTaskCount: committedCount(job.id), recordCount: committedRecords(job.id), updatedAt: now })
      .where(and(eq(jobs.id, job.id), eq(jobs.status, "RUNNING")));
    const progress = db
      .select({ job: jobs, next: nextQueuedUnit(job.id), stillQueued: sql<number>`${indexes.length} - ${committedAmong(job.id, indexes)}` })
      .from(jobs)
      .where(eq(jobs.id, job.id));
    // The writes first, so the counters and the progress read see them.
    const results = await db.batch([intoPlan, ...intoRows, counters, progress]);
    const after = (results.at(-1) as Awaited<typeof progress>)[0];
    const written = results.slice(0, 1 + intoRows.length).some((rows) => (rows as unknown[]).length > 0);
    // The sweep may have ended the job meanwhile: then nothing more is collected for it.
    if (after?.job.status !== "RUNNING") return NOTHING;
    if (!written) {
      if (after.stillQueued > 0) throw leaseLost(job.id);
      return NOTHING;
    }
    await publishJob(this.env, after.job);
    if (after.job.completedTaskCount >= after.job.totalTaskCount) {
      await this.succeeded(after.job, now);
      return FINISHED;
    }
    return { next: after.next, finished: false };
  }

  /**
   * Whether the job's billing workspace used up its plan's scraping steps this month, counting the units a delivery
   * collected and has not committed yet: then no further unit runs.
   */
  async stepCapReached(job: JobRow, now: number, uncommitted = 0): Promise<boolean> {
    const left = await monthlyStepsLeft(this.env.DB, await jobBilling(this.env.DB, job.workspaceId), now);
    return left !== null && left - uncommitted <= 0;
  }

  /** Hands the job's chain on to a later delivery through the queue. */
  async handedOn(job: JobRow, unitIndex: number, delaySeconds?: number): Promise<void> {
    await this.send(unitMessage(job, unitIndex), delaySeconds);
  }

  /** Counts an automatic resumption; returns how many the job has had. */
  async resumed(jobId: string, now: number): Promise<number> {
    const [row] = await database(this.env.DB)
      .update(jobs)
      .set({ attempt: sql`${jobs.attempt} + 1`, updatedAt: now })
      .where(eq(jobs.id, jobId))
      .returning({ attempt: jobs.attempt });
    return row?.attempt ?? 0;
  }

  /** Shows a final job to pollers and webhooks; a superseded credential it was the last to use loses its secret now. */
  private async ended(row: JobRow): Promise<void> {
    await publishJob(this.env, row);
    await jobEnded(this.env, row);
    if (row.credentialId) await eraseSupersededSecret(this.env.DB, row.credentialId, hasActiveJob);
  }

  /**
   * Finishes a job whose units are all done; returns it, or null if it was already final. An incremental job stores
   * its changes first, so whoever sees it Succeeded reads them; a second finisher stores them again, unreferenced.
   */
  async succeeded(job: JobRow, now: number): Promise<JobRow | null> {
    const changes = job.sinceJobId ? await storeChanges(this.env, job, await findJobById(this.env.DB, job.sinceJobId), finishedUnits) : null;
    const resultsExpireAt = await resultsExpiry(this.env.DB, job.workspaceId, now);
    const [row] = await database(this.env.DB)
      .update(jobs)
      .set({
        status: "SUCCEEDED",
        finishedAt: now,
        resultsExpireAt,
        updatedAt: now,
        ...(changes ? { recordCount: changes.recordCount, changesResultId: changes.resultId, changesCsvOffset: changes.csvOffset } : {}),
      })
      .where(and(eq(jobs.id, job.id), inArray(jobs.status, ["PENDING", "RUNNING"]), sql`${jobs.completedTaskCount} = ${jobs.totalTaskCount}`))
      .returning();
    if (row) await this.ended(row);
    return row ?? null;
  }

  /** Ends a job with its error object; returns it, or null if it was already final. */
  async failed(job: Pick<JobRow, "id" | "workspaceId">, error: JobError, now: number): Promise<JobRow | null> {
    const [row] = await database(this.env.DB)
      .update(jobs)
      .set({ status: "FAILED", error, finishedAt: now, updatedAt: now, resultsExpireAt: await resultsExpiry(this.env.DB, job.workspaceId, now) })
      .where(and(eq(jobs.id, job.id), inArray(jobs.status, ["PENDING", "RUNNING"])))
      .returning();
    if (row) await this.ended(row);
    return row ?? null;
  }

  /**
   * Ends every unfinished job of a workspace with `error`, in one transaction
   * with the caller's own writes (`alongside`, e.g. the revocation that takes
   * the workspace's credentials away), so neither happens without the other;
   * then shows each to pollers and webhooks. Returns the jobs it ended, whose credential
   * leases the caller releases.
   */
  async workspaceFailed(workspaceId: string, error: JobError, now: number, alongside: BatchItem<"sqlite">[]): Promise<JobRow[]> {
    const db = database(this.env.DB);
    const resultsExpireAt = await resultsExpiry(this.env.DB, workspaceId, now);
    const [ended] = await db.batch([
      db
        .update(jobs)
        .set({ status: "FAILED", error, finishedAt: now, updatedAt: now, resultsExpireAt })
        .where(and(eq(jobs.workspaceId, workspaceId), inArray(jobs.status, ["PENDING", "RUNNING"])))
        .returning(),
      ...alongside,
    ]);
    await Promise.all(ended.map(async (row) => {
      await publishJob(this.env, row);
      await jobEnded(this.env, row);
    }));
    return ended;
  }

  /**
   * Sends the plan of a job still PENDING once more, for when its first plan
   * message was lost (a send that failed at create, a queue that dropped it).
   * Sent before it is marked: a send that fails leaves the job to the next
   * sweep, while a plan delivered twice is harmless (the executor ignores it
   * once the job left PENDING, and the lease turns a concurrent one away).
   * False when the job was planned or its plan re-sent meanwhile.
   */
  async planResent(job: { id: string; workspaceId: string }, now: number): Promise<boolean> {
    await this.send(planMessage(job));
    const marked = await database(this.env.DB)
      .update(jobs)
      .set({ planResentAt: now })
      .where(and(eq(jobs.id, job.id), eq(jobs.status, "PENDING"), isNull(jobs.planResentAt)));
    return marked.meta.changes > 0;
  }

  /** Restarts a running job whose chain stalled at its lowest waiting unit; false when none waits. */
  async restarted(job: { id: string; workspaceId: string; nextUnit: number | null }, now: number): Promise<boolean> {
    if (job.nextUnit === null) return false;
    await database(this.env.DB).update(jobs).set({ updatedAt: now }).where(eq(jobs.id, job.id));
    await this.send(unitMessage(job, job.nextUnit));
    return true;
  }
}
