import { and, eq, inArray, sql } from "drizzle-orm";
import { database } from "../db/client";
import { jobs, taskUnits } from "../db/tables";
import type { JobError } from "../../collectors/job-failures";
import type { DateSegment, Target } from "../../collectors/adapter";
import type { JobRow } from "../jobs/store";

export type UnitRow = typeof taskUnits.$inferSelect;

export interface PlannedUnit {
  target: Target | null;
  segment: DateSegment | null;
}

/** Job state transitions of the pipeline; every write is conditional, so redelivered messages change nothing twice. */
export class JobState {
  constructor(private readonly d1: D1Database) {}

  async job(jobId: string): Promise<JobRow | null> {
    return (await database(this.d1).select().from(jobs).where(eq(jobs.id, jobId)).get()) ?? null;
  }

  async unit(jobId: string, unitIndex: number): Promise<UnitRow | null> {
    return (await database(this.d1).select().from(taskUnits).where(and(eq(taskUnits.jobId, jobId), eq(taskUnits.unitIndex, unitIndex))).get()) ?? null;
  }

  /**
   * Stores the units and moves PENDING to RUNNING in one transaction. Units
   * are keyed by index, so a second planning delivery inserts nothing new.
   * Returns the running job, or null if another delivery planned first.
   */
  async markPlanned(jobId: string, units: PlannedUnit[], now: number): Promise<JobRow | null> {
    const db = database(this.d1);
    const inserts = units.map((u, unitIndex) =>
      db
        .insert(taskUnits)
        .values({
          jobId,
          unitIndex,
          targetId: u.target?.id ?? null,
          targetAttributes: u.target?.attributes ?? null,
          segmentStart: u.segment?.start ?? null,
          segmentEnd: u.segment?.end ?? null,
          status: "QUEUED",
          updatedAt: now,
        })
        .onConflictDoNothing(),
    );
    const move = db
      .update(jobs)
      .set({ status: "RUNNING", totalTaskCount: units.length, updatedAt: now })
      .where(and(eq(jobs.id, jobId), eq(jobs.status, "PENDING")))
      .returning();
    const results = await db.batch([move, ...inserts]);
    return results[0][0] ?? null;
  }

  /**
   * Commits a unit: flips it to DONE and recomputes the job's counters from
   * its units, so a redelivered unit cannot count twice. Reads back the job
   * and its next waiting unit in the same round trip.
   */
  async completeUnit(jobId: string, unitIndex: number, recordCount: number, now: number): Promise<{ flipped: boolean; job: JobRow | null; next: number | null }> {
    const db = database(this.d1);
    const [flip, , progress] = await db.batch([
      db
        .update(taskUnits)
        .set({ status: "DONE", recordCount, updatedAt: now })
        .where(and(eq(taskUnits.jobId, jobId), eq(taskUnits.unitIndex, unitIndex), eq(taskUnits.status, "QUEUED")))
        .returning({ unitIndex: taskUnits.unitIndex }),
      db
        .update(jobs)
        .set({
          completedTaskCount: sql`(SELECT count(*) FROM task_units WHERE job_id = ${jobId} AND status = 'DONE')`,
          recordCount: sql`(SELECT coalesce(sum(record_count), 0) FROM task_units WHERE job_id = ${jobId} AND status = 'DONE')`,
          updatedAt: now,
        })
        .where(and(eq(jobs.id, jobId), eq(jobs.status, "RUNNING"))),
      db
        .select({ job: jobs, next: sql<number | null>`(SELECT min(unit_index) FROM task_units WHERE job_id = ${jobId} AND status = 'QUEUED')` })
        .from(jobs)
        .where(eq(jobs.id, jobId)),
    ]);
    return { flipped: flip.length > 0, job: progress[0]?.job ?? null, next: progress[0]?.next ?? null };
  }

  /** Finishes a job whose units are all done; returns it, or null if it was already final. */
  async succeed(jobId: string, now: number): Promise<JobRow | null> {
    const [row] = await database(this.d1)
      .update(jobs)
      .set({ status: "SUCCEEDED", finishedAt: now, updatedAt: now })
      .where(and(eq(jobs.id, jobId), inArray(jobs.status, ["PENDING", "RUNNING"]), sql`${jobs.completedTaskCount} = ${jobs.totalTaskCount}`))
      .returning();
    return row ?? null;
  }

  /** Ends a job with its error object; returns it, or null if it was already final. */
  async fail(jobId: string, error: JobError, now: number): Promise<JobRow | null> {
    const [row] = await database(this.d1)
      .update(jobs)
      .set({ status: "FAILED", error, finishedAt: now, updatedAt: now })
      .where(and(eq(jobs.id, jobId), inArray(jobs.status, ["PENDING", "RUNNING"])))
      .returning();
    return row ?? null;
  }

  async recordAttempt(jobId: string, now: number): Promise<number> {
    const row = await this.d1.prepare("UPDATE jobs SET attempt = attempt + 1, updated_at = ? WHERE id = ? RETURNING attempt").bind(now, jobId).first<{ attempt: number }>();
    return row?.attempt ?? 0;
  }

  /** The lowest unit still waiting: where a stalled chain resumes. */
  async firstQueuedUnit(jobId: string): Promise<number | null> {
    const row = await this.d1.prepare("SELECT min(unit_index) AS i FROM task_units WHERE job_id = ? AND status = 'QUEUED'").bind(jobId).first<{ i: number | null }>();
    return row?.i ?? null;
  }
}
