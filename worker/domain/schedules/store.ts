import { and, asc, desc, eq, isNotNull, lte, sql } from "drizzle-orm";
import { database } from "../../platform/database/client";
import { schedules } from "./tables";
import { type CursorPosition, pastPosition } from "../../platform/database/cursor";

export type ScheduleRow = typeof schedules.$inferSelect;
export type NewSchedule = Pick<ScheduleRow, "id" | "workspaceId" | "providerCode" | "schema" | "credentialId" | "cron" | "params" | "lastDays" | "incremental" | "nextRunAt" | "deliveryRouteId">;

/** How many schedules a workspace may keep: far above a business's loads, far below what would load the service. */
export const MAX_SCHEDULES_PER_WORKSPACE = 100;

/** Non-retryable failed runs in a row after which a schedule pauses itself. */
export const SCHEDULE_FAILURE_LIMIT = 3;

const INSERT = `
INSERT INTO schedules (id, workspace_id, provider_code, schema, credential_id, cron, params, last_days, incremental, status, next_run_at, consecutive_failures, created_at, updated_at, delivery_route_id)
SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, 'ACTIVE', ?10, 0, ?11, ?11, ?13
WHERE (SELECT count(*) FROM schedules WHERE workspace_id = ?2) < ?12`;

/** Stores a new ACTIVE schedule; null when the workspace already keeps the most it may (checked in the insert). */
export async function insertSchedule(d1: D1Database, row: NewSchedule, now: number): Promise<ScheduleRow | null> {
  const result = await d1
    // Raw: drizzle's builder has no INSERT … SELECT without a FROM, which keeps the count check and the insert one statement.
    .prepare(INSERT)
    .bind(row.id, row.workspaceId, row.providerCode, row.schema, row.credentialId, row.cron, JSON.stringify(row.params), row.lastDays, row.incremental ? 1 : 0, row.nextRunAt, now, MAX_SCHEDULES_PER_WORKSPACE, row.deliveryRouteId)
    .run();
  if (!result.meta.changes) return null;
  return { ...row, status: "ACTIVE", pausedReason: null, consecutiveFailures: 0, skippedRuns: 0, lastSkippedFor: null, createdAt: now, updatedAt: now };
}

/** Whether a write broke the one-ACTIVE-schedule-per-credential-and-schema indexes (tables.ts); drizzle keeps D1's error as a cause. */
export function isOneActiveConflict(err: unknown): boolean {
  for (let e: unknown = err; e; e = (e as { cause?: unknown }).cause) {
    if (/UNIQUE constraint failed: schedules\.workspace_id/.test(String((e as Error).message ?? e))) return true;
  }
  return false;
}

export async function findSchedule(d1: D1Database, workspaceId: string, id: string): Promise<ScheduleRow | null> {
  return (await database(d1).select().from(schedules).where(and(eq(schedules.id, id), eq(schedules.workspaceId, workspaceId))).get()) ?? null;
}

export async function findScheduleById(d1: D1Database, id: string): Promise<ScheduleRow | null> {
  return (await database(d1).select().from(schedules).where(eq(schedules.id, id)).get()) ?? null;
}

/** A page of a workspace's schedules, newest first, one row past `limit` (platform/http/paging.ts). */
export function listSchedules(d1: D1Database, workspaceId: string, limit: number, after?: CursorPosition): Promise<ScheduleRow[]> {
  return database(d1)
    .select()
    .from(schedules)
    .where(and(eq(schedules.workspaceId, workspaceId), pastPosition(schedules.createdAt, schedules.id, after)))
    .orderBy(desc(schedules.createdAt), desc(schedules.id))
    .limit(limit + 1)
    .all();
}

/** ACTIVE schedules whose occurrence is due by `before`: the ones an alarm should have run. */
export function dueSchedules(d1: D1Database, before: number, limit: number): Promise<ScheduleRow[]> {
  return database(d1)
    .select()
    .from(schedules)
    .where(and(eq(schedules.status, "ACTIVE"), isNotNull(schedules.nextRunAt), lte(schedules.nextRunAt, before)))
    .orderBy(asc(schedules.nextRunAt))
    .limit(limit)
    .all();
}

/**
 * Moves an ACTIVE schedule from its stored occurrence `from` to `next`, counting `skipped` (an occurrence not run) when
 * given; null when another run moved it first.
 */
export async function advanceSchedule(d1: D1Database, id: string, from: number, next: number, now: number, skipped?: number): Promise<ScheduleRow | null> {
  const [row] = await database(d1)
    .update(schedules)
    .set({ nextRunAt: next, updatedAt: now, ...(skipped === undefined ? {} : { skippedRuns: sql`${schedules.skippedRuns} + 1`, lastSkippedFor: skipped }) })
    .where(and(eq(schedules.id, id), eq(schedules.status, "ACTIVE"), eq(schedules.nextRunAt, from)))
    .returning();
  return row ?? null;
}

/** Pauses (with the service's reason, or none when a person asked) or resumes at `nextRunAt`; null when it was already so. */
export async function setScheduleStatus(
  d1: D1Database,
  id: string,
  change: { status: "PAUSED"; pausedReason: string | null } | { status: "ACTIVE"; nextRunAt: number },
  now: number,
): Promise<ScheduleRow | null> {
  const from = change.status === "PAUSED" ? "ACTIVE" : "PAUSED";
  const set =
    change.status === "PAUSED"
      ? { status: "PAUSED" as const, pausedReason: change.pausedReason, nextRunAt: null, updatedAt: now }
      : { status: "ACTIVE" as const, pausedReason: null, nextRunAt: change.nextRunAt, consecutiveFailures: 0, updatedAt: now };
  const [row] = await database(d1).update(schedules).set(set).where(and(eq(schedules.id, id), eq(schedules.status, from))).returning();
  return row ?? null;
}

/** Counts a run's end: a non-retryable failure adds one to the run of failures, a success ends it. Returns the count. */
export async function countRunOutcome(d1: D1Database, id: string, failedForGood: boolean, now: number): Promise<number> {
  const [row] = await database(d1)
    .update(schedules)
    .set({ consecutiveFailures: failedForGood ? sql`${schedules.consecutiveFailures} + 1` : 0, updatedAt: now })
    .where(eq(schedules.id, id))
    .returning({ consecutiveFailures: schedules.consecutiveFailures });
  return row?.consecutiveFailures ?? 0;
}

export async function deleteSchedule(d1: D1Database, workspaceId: string, id: string): Promise<boolean> {
  const removed = await database(d1).delete(schedules).where(and(eq(schedules.id, id), eq(schedules.workspaceId, workspaceId))).returning({ id: schedules.id });
  return removed.length > 0;
}
