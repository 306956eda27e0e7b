import { type SQL, type SQLWrapper, sql } from "drizzle-orm";
import type { PlanEntry } from "./tables";

/*
 * Where a unit's commit is recorded. Since stop 68 a commit marks its units' entries in the job's plan row
 * (`committed`), one row written a commit whatever its units; a unit committed before has a DONE task_units row
 * instead: every unit of a job planned before drizzle/0051, and the units a job planned from 0051 on committed before
 * stop 68 (such a job, still running, goes on with marks in its plan). A unit is committed when either says so, and
 * never both (lifecycle.ts `unitsCommitted` marks no unit that has a DONE row), so counts add the two up.
 */

/** A plan entry's JSON path (`$[3]`), or of one of its fields (`$[3].committed`): reads one entry, not the whole plan. */
export const entryPath = (unitIndex: number, field?: keyof PlanEntry): string => `$[${unitIndex}]${field ? `.${field}` : ""}`;

/** Whether the job's unit has a DONE row; `unitIndex` may be a column of an outer query (json_each's key). */
export const hasDoneRow = (jobId: string | SQLWrapper, unitIndex: number | SQLWrapper) =>
  sql`EXISTS (SELECT 1 FROM task_units WHERE task_units.job_id = ${jobId} AND task_units.unit_index = ${unitIndex} AND task_units.status = 'DONE')`;

// Raw: the plan's entries are read through json_each, a table-valued function drizzle's builder cannot select from.
const ofMarkedEntries = (jobId: string, what: SQL) =>
  sql`(SELECT ${what} FROM job_plans, json_each(job_plans.units) AS e WHERE job_plans.job_id = ${jobId} AND json_extract(e.value, '$.committed') IS NOT NULL)`;

/** How many of the job's units are committed: its `completedTaskCount`, recomputed by each commit so none counts twice. */
export const committedCount = (jobId: string) =>
  sql<number>`${ofMarkedEntries(jobId, sql`count(*)`)} + (SELECT count(*) FROM task_units WHERE job_id = ${jobId} AND status = 'DONE')`;

/** How many records the job's committed units hold: its `recordCount`, recomputed with `committedCount`. */
export const committedRecords = (jobId: string) =>
  sql<number>`${ofMarkedEntries(jobId, sql`coalesce(sum(json_extract(e.value, '$.committed.recordCount')), 0)`)}
    + (SELECT coalesce(sum(record_count), 0) FROM task_units WHERE job_id = ${jobId} AND status = 'DONE')`;

/** How many units a plan's entries (the column of an outer query) had committed since `since`: a month's steps. */
export const markedSince = (units: SQLWrapper, since: number) =>
  sql<number>`(SELECT count(*) FROM json_each(${units}) WHERE json_extract(value, '$.committed.at') >= ${since})`;

/** How many of the job's units at `unitIndexes` are committed: their entries in one read of the plan, and their rows. */
export const committedAmong = (jobId: string, unitIndexes: number[]) =>
  sql<number>`coalesce((SELECT ${sql.join(unitIndexes.map((i) => sql`(json_type(units, ${entryPath(i, "committed")}) IS NOT NULL)`), sql` + `)} FROM job_plans WHERE job_id = ${jobId}), 0)
    + (SELECT count(*) FROM task_units WHERE job_id = ${jobId} AND unit_index IN ${unitIndexes} AND status = 'DONE')`;
