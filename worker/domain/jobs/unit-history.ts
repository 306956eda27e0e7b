import { asc, eq } from "drizzle-orm";
import { database } from "../../platform/database/client";
import { taskUnits } from "./tables";

/** How many units a job's page lists: a year of a dozen accounts' months stays within it, and the page stays light. */
export const UNITS_SHOWN = 120;

/** What a unit's row records of its course: its period, whether its records are committed and how many, its last change. */
export interface UnitHistory {
  unitIndex: number;
  segmentStart: string | null;
  segmentEnd: string | null;
  status: "QUEUED" | "DONE";
  recordCount: number | null;
  updatedAt: number;
}

/** A job's units in order, as far as D1 still keeps them (a purge of its results removes them): a job page's timeline. */
export function unitHistory(d1: D1Database, jobId: string): Promise<UnitHistory[]> {
  return database(d1)
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
    .limit(UNITS_SHOWN)
    .all();
}
