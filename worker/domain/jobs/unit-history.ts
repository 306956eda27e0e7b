import { asc, eq } from "drizzle-orm";
import { database } from "../../platform/database/client";
import { jobPlans, taskUnits } from "./tables";

/** How many units a job's page lists: a year of a dozen accounts' months stays within it, and the page stays light. */
export const UNITS_SHOWN = 120;

/** What a unit's course records: its period, whether its records are committed and how many, and when they were. */
export interface UnitHistory {
  unitIndex: number;
  segmentStart: string | null;
  segmentEnd: string | null;
  status: "QUEUED" | "DONE";
  recordCount: number | null;
  /** When it was committed (its row: when it last changed); null for a unit still to collect (the plan records no time). */
  updatedAt: number | null;
}

/**
 * A job's units in order, as far as D1 still keeps them (a purge of its results removes them): a job page's timeline.
 * A unit's entry in the job's plan, committed when its commit marked it; a unit's row where it has one (committed
 * before stop 68; a job planned before drizzle/0051 has a row for every unit and no plan); otherwise still to collect.
 */
export async function unitHistory(d1: D1Database, jobId: string): Promise<UnitHistory[]> {
  const db = database(d1);
  const [plans, rows] = await db.batch([
    db.select({ units: jobPlans.units }).from(jobPlans).where(eq(jobPlans.jobId, jobId)),
    db
      .select({
        unitIndex: taskUnits.unitIndex,
        segmentStart: taskUnits.segmentStart,
        segmentEnd: taskUnits.segmentEnd,
        status: taskUnits.status,
        recordCount: taskUnits.recordCount,
        updatedAt: taskUnits.updatedAt,
      })
      .from(taskUnits)
      .where(eq(taskUnits.jobId, jobId))
      .orderBy(asc(taskUnits.unitIndex))
      .limit(UNITS_SHOWN),
  ]);
  const written = new Map<number, UnitHistory>(rows.map((row) => [row.unitIndex, row]));
  const planned = (plans[0]?.units ?? []).slice(0, UNITS_SHOWN);
  if (planned.length === 0) return rows;
  return planned.map((entry, unitIndex): UnitHistory => {
    const { segmentStart, segmentEnd, committed } = entry;
    if (committed) return { unitIndex, segmentStart, segmentEnd, status: "DONE", recordCount: committed.recordCount, updatedAt: committed.at };
    return written.get(unitIndex) ?? { unitIndex, segmentStart, segmentEnd, status: "QUEUED", recordCount: null, updatedAt: null };
  });
}
