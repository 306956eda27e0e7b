import { and, desc, eq, gte, inArray, lt, or, type SQL } from "drizzle-orm";
import { database } from "../../platform/database/client";
import { type ListPage, pastPosition } from "../../platform/database/cursor";
import { deleteBatch } from "../../platform/database/delete-batch";
import type { RequestLogFilter } from "./inputs";
import type { RequestLogEntry } from "./messages";
import { type RequestLogRow, requestLogs } from "./tables";

/** How long a request stays in the log (docs/request-logs.md). */
export const REQUEST_LOG_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;

/** D1 binds at most 100 values a statement: rows of 14 columns go 7 to an insert. */
const ROWS_PER_INSERT = 7;

/**
 * Writes a consumer batch's rows in one D1 round trip. A row already there is left: the queue delivers at least once,
 * and a redelivered message carries the same request.
 */
export async function insertRequestLogs(d1: D1Database, rows: RequestLogEntry[]): Promise<void> {
  const db = database(d1);
  const inserts = [];
  for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) inserts.push(db.insert(requestLogs).values(rows.slice(i, i + ROWS_PER_INSERT)).onConflictDoNothing());
  const [first, ...rest] = inserts;
  if (first) await db.batch([first, ...rest]);
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

/** One bounded delete of the retention purge (domain/retention/purge.ts): requests past the log's 30 days. */
export function purgeOldRequestLogs(d1: D1Database, limit: number, now: number = Date.now()): Promise<number> {
  return deleteBatch(d1, "request_logs", "created_at <= ?", [now - REQUEST_LOG_RETENTION_MS], limit * PURGE_SCALE);
}
