import { and, count, desc, eq, fillPlaceholders, gt, gte, inArray, isNotNull, isNull, lt, lte, max, type SQL, type SQLWrapper, sql } from "drizzle-orm";
import { database } from "../../platform/database/client";
import { idempotencyKeys, type JobStatus, jobs, type PlanEntry } from "./tables";
import type { JobError } from "../../../contracts/job-failures";
import { KST_OFFSET_MS } from "../../../contracts/korean-time";
import { type CursorPosition, pastPosition } from "../../platform/database/cursor";
import { revisionsHold } from "../workspaces/job-billing";
import { entryPath, hasDoneRow } from "./plan-commits";

export type JobRow = typeof jobs.$inferSelect;

/** A job that ended: no transition leaves SUCCEEDED or FAILED. */
export const isFinished = (row: Pick<JobRow, "status">): boolean => row.status === "SUCCEEDED" || row.status === "FAILED";

/** Idempotency keys are honoured for at least this long. */
export const IDEMPOTENCY_TTL_MS = 24 * 3_600_000;

export interface NewJob {
  id: string;
  workspaceId: string;
  /** Whose monthly cap the job counts against: the workspace itself, or a connection workspace's partner. */
  billingWorkspaceId: string;
  providerCode: string;
  schema: string;
  params: Record<string, unknown>;
  credentialId: string | null;
  /** The base of an incremental job (params.since), or null. */
  sinceJobId: string | null;
  /** A schedule's run: the schedule and its occurrence (one job each, by a unique index); null otherwise. */
  scheduleId: string | null;
  scheduledFor: number | null;
  /** Where its results go once it succeeds (worker/domain/deliveries/), or null. */
  deliveryRouteId: string | null;
  /** Failed at birth (no credential) or waiting for planning. */
  status: "PENDING" | "FAILED";
  error: JobError | null;
  createdAt: number;
  deadlineAt: number;
  /** Set for a job born Failed, which finishes as it is created (results/job-results.ts resultsExpiry); null for one that waits to run. */
  resultsExpireAt: number | null;
}

export interface Idempotency {
  key: string;
  requestHash: string;
}

/** The revisions (tables.ts `workspaces.revision`) of a job's workspace and billing workspace that a create decided at. */
export interface Revisions {
  workspace: number;
  billing: number;
}

/**
 * The monthly job cap and the concurrent-job limit, checked inside the insert so concurrent creates cannot
 * overshoot them; counted over the job's billing workspace. A job born Failed runs nothing and is not limited.
 * With `revisions`, the insert also commits only while the job's workspace and billing workspace are still at the
 * revisions the create decided at (domain/jobs/create-context.ts).
 */
export interface CapWindow {
  cap: number | null;
  monthStart: number;
  concurrentJobs: number | null;
  /** Of the unfinished jobs, how many a schedule made may be at once; counted only for a scheduled job. */
  concurrentScheduledJobs: number | null;
  revisions: Revisions | null;
}

export type InsertOutcome =
  | { kind: "CREATED"; row: JobRow }
  | { kind: "REPLAYED"; row: JobRow }
  | { kind: "KEY_CONFLICT" }
  | { kind: "CAP_REACHED" }
  | { kind: "TOO_MANY_UNFINISHED" }
  /** What the create decided from changed since it was read: decide again from a fresh read. */
  | { kind: "STALE" };

// Raw: an INSERT … SELECT with no FROM whose guards are subqueries; drizzle's insert … select needs a FROM and every column.
const INSERT_JOB = `
INSERT INTO jobs (id, workspace_id, billing_workspace_id, provider_code, schema, params, status, credential_id, error, created_at, updated_at, deadline_at, finished_at, since_job_id, schedule_id, scheduled_for, delivery_route_id, results_expire_at)
SELECT ?1, ?2, ?14, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?9, ?10, ?11, ?16, ?17, ?18, ?19, ?23
WHERE (?12 IS NULL OR (SELECT count(*) FROM jobs WHERE billing_workspace_id = ?14 AND created_at >= ?13) < ?12)
  AND (?6 <> 'PENDING' OR ?15 IS NULL OR (SELECT count(*) FROM jobs WHERE billing_workspace_id = ?14 AND status IN ('PENDING', 'RUNNING')) < ?15)
  AND (?6 <> 'PENDING' OR ?17 IS NULL OR ?22 IS NULL OR (SELECT count(*) FROM jobs WHERE billing_workspace_id = ?14 AND status IN ('PENDING', 'RUNNING') AND schedule_id IS NOT NULL) < ?22)
  AND (?20 IS NULL OR (${revisionsHold("?2", "?14", "?20", "?21")}))`;

// Inserted only if the job row went in, so a capped request leaves no key behind. Raw as INSERT_JOB, and batched with it.
const INSERT_KEY = `
INSERT INTO idempotency_keys (workspace_id, key, request_hash, job_id, created_at, expires_at)
SELECT ?1, ?2, ?3, ?4, ?5, ?6 WHERE EXISTS (SELECT 1 FROM jobs WHERE id = ?4)`;

/** The row as INSERT_JOB stores it, so a create needs no read-back. */
function insertedRow(job: NewJob): JobRow {
  return {
    ...job,
    completedTaskCount: 0,
    totalTaskCount: 0,
    recordCount: 0,
    attempt: 0,
    leaseFence: 0,
    queuePosition: null,
    awaitingHolder: null,
    resumesAt: null,
    planResentAt: null,
    changesResultId: null,
    changesCsvOffset: null,
    resultsDeletedReason: null,
    resultsPurgedAt: null,
    updatedAt: job.createdAt,
    finishedAt: job.status === "FAILED" ? job.createdAt : null,
  };
}

export async function findJob(d1: D1Database, workspaceId: string, id: string): Promise<JobRow | null> {
  const row = await database(d1).select().from(jobs).where(and(eq(jobs.id, id), eq(jobs.workspaceId, workspaceId))).get();
  return row ?? null;
}

/** A job by id alone: for the pipeline, whose messages come from our own queue. */
export async function findJobById(d1: D1Database, id: string): Promise<JobRow | null> {
  return (await database(d1).select().from(jobs).where(eq(jobs.id, id)).get()) ?? null;
}

/** A unit of a job's plan whose records are not committed yet: what a delivery collects next. */
export type QueuedUnit = PlanEntry & { unitIndex: number };

/*
 * A job's units still to collect: its plan's entries that are not committed (plan-commits.ts: no `committed` mark, no
 * DONE row). A job planned before drizzle/0051 (or by a version still running while it rolled out) has no plan but a
 * QUEUED row a unit, read as its entries instead: such a job ends by its deadline (`jobs.deadline_at`, which the sweep
 * enforces), and the legacy half goes once none can be left. Raw: a plan's entries are read through json_extract (one
 * entry) or json_each (all of them, a table-valued function drizzle's builder cannot select from), and D1 counts each
 * entry json_each reads as a row read. `jobId` may be an outer query's column (the sweep's).
 */
const queuedEntry = (jobId: string, unitIndex: number) =>
  sql`SELECT ${unitIndex} AS unit_index, json_extract(units, ${entryPath(unitIndex)}) AS entry FROM job_plans
      WHERE job_id = ${jobId} AND json_type(units, ${entryPath(unitIndex)}) IS NOT NULL
        AND json_type(units, ${entryPath(unitIndex, "committed")}) IS NULL AND NOT ${hasDoneRow(jobId, unitIndex)}`;
const plannedQueued = (jobId: string | SQLWrapper, where: SQL) =>
  sql`SELECT p.key AS unit_index, p.value AS entry FROM job_plans, json_each(job_plans.units) AS p
      WHERE job_plans.job_id = ${jobId} AND ${where} AND json_type(p.value, '$.committed') IS NULL AND NOT ${hasDoneRow(jobId, sql`p.key`)}`;
const legacyQueued = (jobId: string | SQLWrapper, where: SQL) =>
  sql`SELECT unit_index, json_object('targetId', target_id, 'targetAttributes', json(target_attributes), 'segmentStart', segment_start, 'segmentEnd', segment_end) AS entry
      FROM task_units WHERE job_id = ${jobId} AND status = 'QUEUED' AND ${where} AND NOT EXISTS (SELECT 1 FROM job_plans WHERE job_plans.job_id = ${jobId})`;
/** The unit at `unitIndex` while it is still to collect, as one row (none once committed): one plan entry read. */
const queuedAt = (jobId: string, unitIndex: number) => sql`${queuedEntry(jobId, unitIndex)} UNION ALL ${legacyQueued(jobId, sql`unit_index = ${unitIndex}`)}`;

async function firstQueued(d1: D1Database, units: SQL): Promise<QueuedUnit | null> {
  const found = await database(d1).get<{ unit_index: number; entry: string } | undefined>(sql`${units} ORDER BY unit_index LIMIT 1`);
  return found ? { ...(JSON.parse(found.entry) as PlanEntry), unitIndex: found.unit_index } : null;
}

/** The job's unit at `unitIndex` if its records are still to collect; null once committed (or never planned). */
export const findUnit = (d1: D1Database, jobId: string, unitIndex: number): Promise<QueuedUnit | null> => firstQueued(d1, queuedAt(jobId, unitIndex));

/**
 * The first unit after `unitIndex` still to collect: where a delivery's chain goes on while its units wait to be
 * committed together. That is the next one but where it was committed already, or at the plan's end: only then are
 * the plan's entries read all.
 */
export async function queuedUnitAfter(d1: D1Database, jobId: string, unitIndex: number): Promise<QueuedUnit | null> {
  const next = unitIndex + 1;
  return (
    (await findUnit(d1, jobId, next)) ??
    firstQueued(d1, sql`${plannedQueued(jobId, sql`p.key > ${next}`)} UNION ALL ${legacyQueued(jobId, sql`unit_index > ${next}`)}`)
  );
}

/** How many credential ids one statement names: D1 binds at most 100 parameters a statement, the rest go beside them. */
export const CREDENTIAL_IDS_PER_STATEMENT = 80;

/** Whether a job still runs on the credential (or on any of them), so deleting it now would pull it from under that job. */
export async function hasActiveJob(d1: D1Database, credentialIds: string | readonly string[]): Promise<boolean> {
  const ids = typeof credentialIds === "string" ? [credentialIds] : credentialIds;
  for (let i = 0; i < ids.length; i += CREDENTIAL_IDS_PER_STATEMENT) {
    const row = await database(d1)
      .select({ id: jobs.id })
      .from(jobs)
      .where(and(inArray(jobs.credentialId, ids.slice(i, i + CREDENTIAL_IDS_PER_STATEMENT)), inArray(jobs.status, ["PENDING", "RUNNING"])))
      .limit(1)
      .get();
    if (row) return true;
  }
  return false;
}

/** A job the sweep acts on, with the lowest unit still waiting (where a stalled chain resumes). */
export interface SweptJob {
  id: string;
  workspaceId: string;
  credentialId: string | null;
  providerCode: string;
  nextUnit: number | null;
}

const SWEEP_BATCH = 500;

/** The lowest unit of a job still to collect: where its chain goes on (the whole plan read, once a commit and for the sweep). */
export const nextQueuedUnit = (jobId: string | SQLWrapper) =>
  sql<number | null>`(SELECT min(unit_index) FROM (${plannedQueued(jobId, sql`1`)} UNION ALL ${legacyQueued(jobId, sql`1`)}))`;

function sweptJobs(d1: D1Database, where: SQL): Promise<SweptJob[]> {
  return database(d1)
    .select({ id: jobs.id, workspaceId: jobs.workspaceId, credentialId: jobs.credentialId, providerCode: jobs.providerCode, nextUnit: nextQueuedUnit(jobs.id) })
    .from(jobs)
    .where(where)
    .limit(SWEEP_BATCH)
    .all();
}

/** Unfinished jobs past their wait budget. */
export const overdueJobs = (d1: D1Database, now: number) => sweptJobs(d1, and(inArray(jobs.status, ["PENDING", "RUNNING"]), lte(jobs.deadlineAt, now))!);

/** Jobs still waiting for planning since before `createdBefore`. */
// A job waiting in its credential's line, for its provider's maintenance to end or for its holder's phone has its
// next delivery queued, and its deadline bounds it: the sweep leaves it alone.
const notWaiting = () => and(isNull(jobs.queuePosition), isNull(jobs.resumesAt), isNull(jobs.awaitingHolder));

export const orphanedJobs = (d1: D1Database, createdBefore: number) =>
  sweptJobs(d1, and(eq(jobs.status, "PENDING"), lte(jobs.createdAt, createdBefore), notWaiting())!);

/** Jobs still waiting for planning since before `createdBefore` whose plan was not sent again yet. */
export const unplannedJobs = (d1: D1Database, createdBefore: number) =>
  sweptJobs(d1, and(eq(jobs.status, "PENDING"), lte(jobs.createdAt, createdBefore), isNull(jobs.planResentAt), notWaiting())!);

/** Running jobs with no progress since `updatedBefore`. */
export const stalledJobs = (d1: D1Database, updatedBefore: number) =>
  sweptJobs(d1, and(eq(jobs.status, "RUNNING"), lte(jobs.updatedAt, updatedBefore), isNull(jobs.resumesAt), isNull(jobs.awaitingHolder))!);

async function findByKey(d1: D1Database, workspaceId: string, key: string, now: number) {
  const row = await database(d1)
    .select({ requestHash: idempotencyKeys.requestHash, jobId: idempotencyKeys.jobId })
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.workspaceId, workspaceId), eq(idempotencyKeys.key, key), gt(idempotencyKeys.expiresAt, now)))
    .get();
  return row ?? null;
}

async function replay(d1: D1Database, job: NewJob, idem: Idempotency): Promise<InsertOutcome | null> {
  const existing = await findByKey(d1, job.workspaceId, idem.key, job.createdAt);
  if (!existing) return null;
  if (existing.requestHash !== idem.requestHash) return { kind: "KEY_CONFLICT" };
  const row = await findJob(d1, job.workspaceId, existing.jobId);
  return row ? { kind: "REPLAYED", row } : null;
}

/** A workspace's jobs since `since` counted by KST day, status and provider, with the records they collected: the console overview's. */
export async function jobActivity(d1: D1Database, workspaceId: string, since: number): Promise<{ day: string; status: JobStatus; providerCode: string; jobs: number; records: number }[]> {
  // The KST calendar day (UTC+9) of the job's creation.
  const day = sql<string>`date((${jobs.createdAt} + ${sql.raw(String(KST_OFFSET_MS))}) / 1000, 'unixepoch')`;
  return database(d1)
    .select({ day, status: jobs.status, providerCode: jobs.providerCode, jobs: count(), records: sql<number>`coalesce(sum(${jobs.recordCount}), 0)` })
    .from(jobs)
    .where(and(eq(jobs.workspaceId, workspaceId), gte(jobs.createdAt, since)))
    .groupBy(day, jobs.status, jobs.providerCode)
    .all();
}

/** When each of a workspace's credentials last collected successfully (its latest succeeded job's end), by credential id. */
export async function lastSuccesses(d1: D1Database, workspaceId: string): Promise<Map<string, number>> {
  const rows = await database(d1)
    .select({ credentialId: jobs.credentialId, at: max(jobs.finishedAt) })
    .from(jobs)
    .where(and(eq(jobs.workspaceId, workspaceId), eq(jobs.status, "SUCCEEDED"), isNotNull(jobs.credentialId)))
    .groupBy(jobs.credentialId)
    .all();
  return new Map(rows.map((r) => [r.credentialId!, r.at!]));
}

/** Jobs a billing workspace's plan has been asked for since `since`, for its monthly job cap. */
export function jobsCreatedSince(d1: D1Database, billingWorkspaceId: string, since: number): Promise<number> {
  return jobsCreatedBetween(d1, billingWorkspaceId, since, Number.MAX_SAFE_INTEGER);
}

/** Jobs a billing workspace's plan was asked for from `start` to before `end`: a paid period's, for its overage. */
export async function jobsCreatedBetween(d1: D1Database, billingWorkspaceId: string, start: number, end: number): Promise<number> {
  const row = await database(d1)
    .select({ n: count() })
    .from(jobs)
    .where(and(eq(jobs.billingWorkspaceId, billingWorkspaceId), gte(jobs.createdAt, start), lt(jobs.createdAt, end)))
    .get();
  return row?.n ?? 0;
}

/** Which limit refused an insert: the monthly cap, or else the concurrent-job limit. */
async function monthlyCapReached(d1: D1Database, job: NewJob, cap: CapWindow): Promise<boolean> {
  if (cap.cap === null) return false;
  return (await jobsCreatedSince(d1, job.billingWorkspaceId, cap.monthStart)) >= cap.cap;
}

/** Why an insert went in with no row: a revision once drawn again never comes back, so one that moved before the insert still differs. */
async function refusal(d1: D1Database, job: NewJob, cap: CapWindow): Promise<InsertOutcome> {
  if (cap.revisions) {
    // Raw: a SELECT with no FROM (a missing workspace row must read as revision 0), which drizzle's builder cannot write.
    const hold = await d1.prepare(`SELECT ${revisionsHold("?1", "?2", "?3", "?4")} AS hold`).bind(job.workspaceId, job.billingWorkspaceId, cap.revisions.workspace, cap.revisions.billing).first<{ hold: number }>();
    if (!hold?.hold) return { kind: "STALE" };
  }
  return (await monthlyCapReached(d1, job, cap)) ? { kind: "CAP_REACHED" } : { kind: "TOO_MANY_UNFINISHED" };
}

/** The expired key's delete as drizzle builds it, once an isolate (expiredKeyStatement). */
let expiredKeyDelete: { sql: string; params: unknown[] } | undefined;

/**
 * The delete of a key expired by `now`, its values bound to the query drizzle built once: building it again for every
 * create with a key was 3% of a credentialed create's CPU (docs/benchmarks.md, stop 68).
 */
function expiredKeyStatement(d1: D1Database, workspaceId: string, key: string, now: number): D1PreparedStatement {
  expiredKeyDelete ??= database(d1)
    .delete(idempotencyKeys)
    .where(and(eq(idempotencyKeys.workspaceId, sql.placeholder("workspaceId")), eq(idempotencyKeys.key, sql.placeholder("key")), lte(idempotencyKeys.expiresAt, sql.placeholder("now"))))
    .toSQL();
  return d1.prepare(expiredKeyDelete.sql).bind(...fillPlaceholders(expiredKeyDelete.params, { workspaceId, key, now }));
}

/**
 * Inserts a job and, with an Idempotency-Key, its key in one transaction, with the key's expired row deleted first
 * (an expired key may be taken over by a new request): a first create is this one batch. Of concurrent first
 * requests with one key exactly one commits; the others fail on the key's primary key and replay its job, as does
 * a retry of a created job.
 */
export async function insertJob(d1: D1Database, job: NewJob, cap: CapWindow, idem?: Idempotency): Promise<InsertOutcome> {
  const insertJobStatement = d1
    .prepare(INSERT_JOB)
    .bind(
      job.id, job.workspaceId, job.providerCode, job.schema, JSON.stringify(job.params), job.status, job.credentialId,
      job.error ? JSON.stringify(job.error) : null, job.createdAt, job.deadlineAt, job.status === "FAILED" ? job.createdAt : null,
      cap.cap, cap.monthStart, job.billingWorkspaceId, cap.concurrentJobs, job.sinceJobId, job.scheduleId, job.scheduledFor, job.deliveryRouteId,
      cap.revisions?.workspace ?? null, cap.revisions?.billing ?? null, cap.concurrentScheduledJobs, job.resultsExpireAt,
    );
  const statements: D1PreparedStatement[] = [insertJobStatement];
  if (idem) {
    statements.unshift(expiredKeyStatement(d1, job.workspaceId, idem.key, job.createdAt));
    statements.push(d1.prepare(INSERT_KEY).bind(job.workspaceId, idem.key, idem.requestHash, job.id, job.createdAt, job.createdAt + IDEMPOTENCY_TTL_MS));
  }
  try {
    const results = await d1.batch(statements);
    // No job went in: a limit or a moved revision refused it, unless the key already names a job (its replay).
    if (!results[idem ? 1 : 0]!.meta.changes) return (idem && (await replay(d1, job, idem))) || (await refusal(d1, job, cap));
  } catch (err) {
    // The key's primary key rejected us: another request with this key committed first.
    const winner = idem ? await replay(d1, job, idem) : null;
    if (winner) return winner;
    throw err;
  }
  return { kind: "CREATED", row: insertedRow(job) };
}

export interface ListQuery {
  workspaceId: string;
  limit: number;
  after?: CursorPosition;
  statuses?: JobStatus[];
  schemas?: string[];
  credentialId?: string;
}

/** Newest first; (createdAt, id) is unique, so pages neither repeat nor skip rows. */
export async function listJobs(d1: D1Database, query: ListQuery): Promise<JobRow[]> {
  const conditions = [eq(jobs.workspaceId, query.workspaceId), pastPosition(jobs.createdAt, jobs.id, query.after)];
  if (query.statuses?.length) conditions.push(inArray(jobs.status, query.statuses));
  if (query.schemas?.length) conditions.push(inArray(jobs.schema, query.schemas));
  if (query.credentialId) conditions.push(eq(jobs.credentialId, query.credentialId));
  return database(d1)
    .select()
    .from(jobs)
    .where(and(...conditions))
    .orderBy(desc(jobs.createdAt), desc(jobs.id))
    .limit(query.limit + 1)
    .all();
}

/** A schedule's runs, newest occurrence first. */
export function scheduleRuns(d1: D1Database, scheduleId: string, limit: number): Promise<JobRow[]> {
  return database(d1).select().from(jobs).where(eq(jobs.scheduleId, scheduleId)).orderBy(desc(jobs.scheduledFor)).limit(limit).all();
}

/** The run of an occurrence, if it was made. */
export async function occurrenceRun(d1: D1Database, scheduleId: string, scheduledFor: number): Promise<JobRow | null> {
  return (await database(d1).select().from(jobs).where(and(eq(jobs.scheduleId, scheduleId), eq(jobs.scheduledFor, scheduledFor))).get()) ?? null;
}

/** A run of the schedule not yet ended (waiting, queued or collecting), if any. */
export async function unfinishedRun(d1: D1Database, scheduleId: string): Promise<JobRow | null> {
  return (await database(d1).select().from(jobs).where(and(eq(jobs.scheduleId, scheduleId), inArray(jobs.status, ["PENDING", "RUNNING"]))).get()) ?? null;
}

/** The newest succeeded run: an incremental schedule's next base. */
export async function lastSucceededRun(d1: D1Database, scheduleId: string): Promise<JobRow | null> {
  return (
    (await database(d1)
      .select()
      .from(jobs)
      .where(and(eq(jobs.scheduleId, scheduleId), eq(jobs.status, "SUCCEEDED")))
      .orderBy(desc(jobs.scheduledFor))
      .limit(1)
      .get()) ?? null
  );
}
