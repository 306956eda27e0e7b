import { and, eq, inArray } from "drizzle-orm";
import { database } from "../db/client";
import { jobs, taskUnits } from "../db/schema";
import type { JobError } from "../errors/job-failures";
import type { DateSegment, Target } from "../providers/adapter";
import type { JobRow } from "../jobs/view";

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
   * are keyed by index, so a second planning delivery inserts nothing new;
   * false if another delivery planned first.
   */
  async markPlanned(jobId: string, units: PlannedUnit[], now: number): Promise<boolean> {
    const inserts = units.map((u, index) =>
      this.d1
        .prepare(
          "INSERT OR IGNORE INTO task_units (job_id, unit_index, target_id, target_attributes, segment_start, segment_end, status, updated_at) VALUES (?, ?, ?, ?, ?, ?, 'QUEUED', ?)",
        )
        .bind(jobId, index, u.target?.id ?? null, u.target ? JSON.stringify(u.target.attributes) : null, u.segment?.start ?? null, u.segment?.end ?? null, now),
    );
    const move = this.d1
      .prepare("UPDATE jobs SET status = 'RUNNING', total_task_count = ?, updated_at = ? WHERE id = ? AND status = 'PENDING'")
      .bind(units.length, now, jobId);
    const results = await this.d1.batch([...inserts, move]);
    return results.at(-1)!.meta.changes > 0;
  }

  /**
   * Commits a unit: flips it to DONE and recomputes the job's counters from
   * its units, so a redelivered unit cannot count twice. Reads back the
   * counters and the next waiting unit in the same round trip.
   */
  async completeUnit(
    jobId: string,
    unitIndex: number,
    recordCount: number,
    now: number,
  ): Promise<{ flipped: boolean; completed: number; total: number; next: number | null; status: string }> {
    const [flip, , progress] = await this.d1.batch([
      this.d1.prepare("UPDATE task_units SET status = 'DONE', record_count = ?, updated_at = ? WHERE job_id = ? AND unit_index = ? AND status = 'QUEUED'").bind(recordCount, now, jobId, unitIndex),
      this.d1
        .prepare(
          `UPDATE jobs SET
             completed_task_count = (SELECT count(*) FROM task_units WHERE job_id = ?1 AND status = 'DONE'),
             record_count = (SELECT coalesce(sum(record_count), 0) FROM task_units WHERE job_id = ?1 AND status = 'DONE'),
             updated_at = ?2
           WHERE id = ?1 AND status = 'RUNNING'`,
        )
        .bind(jobId, now),
      this.d1
        .prepare(
          "SELECT status, completed_task_count AS completed, total_task_count AS total, (SELECT min(unit_index) FROM task_units WHERE job_id = ?1 AND status = 'QUEUED') AS next FROM jobs WHERE id = ?1",
        )
        .bind(jobId),
    ]);
    const row = (progress!.results[0] ?? { status: "GONE", completed: 0, total: 0, next: null }) as { status: string; completed: number; total: number; next: number | null };
    return { flipped: flip!.meta.changes > 0, ...row };
  }

  async succeed(jobId: string, now: number): Promise<boolean> {
    const result = await this.d1
      .prepare("UPDATE jobs SET status = 'SUCCEEDED', finished_at = ?, updated_at = ? WHERE id = ? AND status IN ('PENDING', 'RUNNING') AND completed_task_count = total_task_count")
      .bind(now, now, jobId)
      .run();
    return result.meta.changes > 0;
  }

  async fail(jobId: string, error: JobError, now: number): Promise<boolean> {
    const result = await database(this.d1)
      .update(jobs)
      .set({ status: "FAILED", error, finishedAt: now, updatedAt: now })
      .where(and(eq(jobs.id, jobId), inArray(jobs.status, ["PENDING", "RUNNING"])))
      .returning({ id: jobs.id });
    return result.length > 0;
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
