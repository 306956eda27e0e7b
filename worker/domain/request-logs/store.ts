import { and, desc, eq, gte, inArray, lt, or, sql, sum, type SQL } from "drizzle-orm";
import { database } from "../../platform/database/client";
import { type ListPage, pastPosition } from "../../platform/database/cursor";
import { deleteBatch } from "../../platform/database/delete-batch";
import { kstDate } from "../../../contracts/korean-time";
import type { RequestLogFilter } from "./inputs";
import type { RequestLogEntry } from "./messages";
import { type DayDelta, type DayUse, dayKey } from "./budget";
import { type RequestLogRow, requestLogDays, requestLogs } from "./tables";
import { ApiError } from "../../platform/errors/api-error";

/** How long a request stays in the log (docs/request-logs.md). */
export const REQUEST_LOG_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;

/** D1 binds at most 100 values a statement: rows of 16 columns go 6 to an insert, days' counters of 5 go 20. */
const ROWS_PER_INSERT = 6;
const DAYS_PER_INSERT = 20;

/** What the workspaces' logs took on these days so far (budget.ts). */
export async function dayUses(d1: D1Database, days: { workspaceId: string; day: string }[]): Promise<DayUse[]> {
  if (days.length === 0) return [];
  return database(d1)
    .select({ workspaceId: requestLogDays.workspaceId, day: requestLogDays.day, bytes: requestLogDays.bytes })
    .from(requestLogDays)
    .where(or(...days.map((d) => and(eq(requestLogDays.workspaceId, d.workspaceId), eq(requestLogDays.day, d.day)))));
}

/**
 * Writes a consumer batch's rows and what each day took in one D1 round trip. A row already there is left: the queue
 * delivers at least once, and a redelivered message carries the same request. A folded row (a rate limit's of a key
 * and minute, a job's polls answered the same, entry.ts) counts the requests of every message that carries one (a
 * redelivered message counts its own again). A row's day that `days` does not count (a rate limit's folds are not
 * charged) gets an empty counter if it has none, since the purge finds old rows through their days' counters.
 */
export async function insertRequestLogs(d1: D1Database, rows: RequestLogEntry[], days: DayDelta[] = []): Promise<void> {
  const db = database(d1);
  const inserts = [];
  const counted = new Set(days.map((d) => dayKey(d.workspaceId, d.day)));
  const uncounted = new Map<string, DayDelta>();
  for (const row of rows) {
    const day = kstDate(row.createdAt);
    const key = dayKey(row.workspaceId, day);
    if (!counted.has(key)) uncounted.set(key, { workspaceId: row.workspaceId, day, bytes: 0, rows: 0, omitted: 0 });
  }
  const empty = [...uncounted.values()];
  for (let i = 0; i < empty.length; i += DAYS_PER_INSERT) inserts.push(db.insert(requestLogDays).values(empty.slice(i, i + DAYS_PER_INSERT)).onConflictDoNothing());
  const plain = rows.filter((row) => !row.collapseKey);
  const refusals = rows.filter((row) => row.collapseKey);
  for (let i = 0; i < plain.length; i += ROWS_PER_INSERT) inserts.push(db.insert(requestLogs).values(plain.slice(i, i + ROWS_PER_INSERT)).onConflictDoNothing());
  for (let i = 0; i < refusals.length; i += ROWS_PER_INSERT) {
    inserts.push(
      db
        .insert(requestLogs)
        .values(refusals.slice(i, i + ROWS_PER_INSERT))
        .onConflictDoUpdate({
          target: requestLogs.collapseKey,
          // The fold's unique index is partial (tables.ts): SQLite takes it as the conflict target only with its WHERE.
          targetWhere: sql`collapse_key IS NOT NULL`,
          set: { repeatCount: sql`${requestLogs.repeatCount} + excluded.repeat_count` },
        }),
    );
  }
  for (const day of days) {
    inserts.push(
      db
        .insert(requestLogDays)
        .values(day)
        .onConflictDoUpdate({
          target: [requestLogDays.workspaceId, requestLogDays.day],
          set: {
            bytes: sql`${requestLogDays.bytes} + excluded.bytes`,
            rows: sql`${requestLogDays.rows} + excluded.rows`,
            omitted: sql`${requestLogDays.omitted} + excluded.omitted`,
          },
        }),
    );
  }
  const [first, ...rest] = inserts;
  if (first) await db.batch([first, ...rest]);
}

/** What a workspace's log left out on a KST day past its budget: 0 when nothing was. */
export async function omittedOn(d1: D1Database, workspaceId: string, day: string): Promise<number> {
  const row = await database(d1)
    .select({ omitted: requestLogDays.omitted })
    .from(requestLogDays)
    .where(and(eq(requestLogDays.workspaceId, workspaceId), eq(requestLogDays.day, day)))
    .get();
  return row?.omitted ?? 0;
}

/** The bytes every workspace's log took in its retention: about what request_logs holds (docs/capacity.md). */
export async function storedLogBytes(d1: D1Database, sinceDay: string): Promise<number> {
  const [row] = await database(d1).select({ bytes: sum(requestLogDays.bytes) }).from(requestLogDays).where(gte(requestLogDays.day, sinceDay));
  return Number(row?.bytes ?? 0);
}

/** A path and every path under it, as a range of the index rather than a LIKE, so `%` and `_` in the filter mean themselves. */
const underPath = (prefix: string) => and(gte(requestLogs.path, prefix), lt(requestLogs.path, `${prefix}\u{10FFFF}`));

function statusIn(filter: RequestLogFilter): SQL | undefined {
  const exact = filter.statuses?.length ? [inArray(requestLogs.status, filter.statuses)] : [];
  const classes = (filter.statusClasses ?? []).map((c) => and(gte(requestLogs.status, c * 100), lt(requestLogs.status, c * 100 + 100)));
  return exact.length + classes.length > 0 ? or(...exact, ...classes) : undefined;
}

/** A workspace's requests, newest first, as filtered; one row past `limit` tells the pager more follow. */
export async function listRequestLogs(d1: D1Database, workspaceId: string, filter: RequestLogFilter, page: ListPage): Promise<RequestLogRow[]> {
  return database(d1)
    .select()
    .from(requestLogs)
    .where(
      and(
        eq(requestLogs.workspaceId, workspaceId),
        statusIn(filter),
        filter.errorCode === undefined ? undefined : eq(requestLogs.errorCode, filter.errorCode),
        filter.apiKeyId === undefined ? undefined : eq(requestLogs.apiKeyId, filter.apiKeyId),
        filter.method === undefined ? undefined : eq(requestLogs.method, filter.method),
        filter.pathPrefix === undefined ? undefined : underPath(filter.pathPrefix),
        filter.from === undefined ? undefined : gte(requestLogs.createdAt, filter.from),
        filter.to === undefined ? undefined : lt(requestLogs.createdAt, filter.to),
        pastPosition(requestLogs.createdAt, requestLogs.id, page.after),
      ),
    )
    .orderBy(desc(requestLogs.createdAt), desc(requestLogs.id))
    .limit(page.limit + 1);
}

/** One request of the workspace's log; another workspace's request is as absent as an unknown one. */
export async function findRequestLog(d1: D1Database, workspaceId: string, requestId: string): Promise<RequestLogRow | undefined> {
  const [row] = await database(d1)
    .select()
    .from(requestLogs)
    .where(and(eq(requestLogs.id, requestId), eq(requestLogs.workspaceId, workspaceId)))
    .limit(1);
  return row;
}

/**
 * The log gains a row a request, far more than any other purged table, so its purge deletes this many times the cron's
 * batch a statement: 10,000 rows, ten statements a minute, keeps up with 1,600 requests a second (docs/capacity.md).
 */
const PURGE_SCALE = 20;

/**
 * One bounded delete of the retention purge (domain/retention/purge.ts): requests past the log's 30 days. The table
 * has no index on created_at alone (a row written fewer a request, tables.ts): the workspaces that may hold such rows
 * are those with a day's counter as old (every row has its day's, insertRequestLogs), and each one's rows past the
 * retention are a range of request_logs_workspace. A row written late behind younger ones (a retried message) is found
 * by its own day, so nothing outlives its 30 days.
 */
export function purgeOldRequestLogs(d1: D1Database, limit: number, now: number = Date.now()): Promise<number> {
  const before = now - REQUEST_LOG_RETENTION_MS;
  const where = "workspace_id IN (SELECT workspace_id FROM request_log_days WHERE day <= ?) AND created_at <= ?";
  return deleteBatch(d1, "request_logs", where, [kstDate(before), before], limit * PURGE_SCALE, "id");
}

/**
 * The day counters past the log's retention, and a day more: what storedLogBytes sums is what the table still holds.
 * A workspace's counters stay while any of its rows is past the retention (a purge running behind), since the purge
 * of request_logs finds those rows through them.
 */
export function purgeOldRequestLogDays(d1: D1Database, limit: number, now: number = Date.now()): Promise<number> {
  const where = "day < ? AND NOT EXISTS (SELECT 1 FROM request_logs WHERE request_logs.workspace_id = request_log_days.workspace_id AND request_logs.created_at <= ?)";
  return deleteBatch(d1, "request_log_days", where, [kstDate(now - REQUEST_LOG_RETENTION_MS - 86_400_000), now - REQUEST_LOG_RETENTION_MS], limit);
}

/** One request of the workspace's log, or 404: another workspace's, a purged and a not yet written request alike. */
export async function workspaceRequestLog(d1: D1Database, workspaceId: string, requestId: string): Promise<RequestLogRow> {
  const row = await findRequestLog(d1, workspaceId, requestId);
  if (row) return row;
  throw new ApiError("RESOURCE_NOT_FOUND", { message: "요청 기록을 찾을 수 없습니다. 요청 ID를 확인해 주세요. 기록은 30일 보관되며, 방금 보낸 요청은 몇 초 뒤에 보입니다." });
}
