import { and, asc, desc, eq, isNotNull, isNull, lt, lte, or, sql } from "drizzle-orm";
import { noteFlagged } from "../alerts/raise";
import { database } from "../../platform/database/client";
import { failureReports } from "./tables";
import type { FailureReport } from "../../platform/errors/failure-report";
import { latestKeyVersion, openText, rewrapText, sealText } from "../vault/envelope";
import { pastKey, type RewrapTally, rewrapRows } from "../vault/rewrap-rows";
import { reportUrl } from "../../../collectors/kit/redaction";

export type ReportRow = typeof failureReports.$inferSelect;

/** Who met it first: a job, or, outside any job, a request (its answer's requestId). */
export type ReportOrigin = { jobId: string } | { requestId: string };
type ReportsEnv = Pick<Env, "DB" | "RESULTS" | "VAULT_MASTER_KEY" | "ALERT_DESKS">;

/** A report's page is kept this long, then removed with its row by the cron: long enough to fix the adapter, no longer. */
export const REPORT_RETENTION_MS = 30 * 86_400_000;
const pageBinding = (id: string) => ["failure-report", id];
const pageKey = (id: string) => `failure-reports/${id}`;

/** A recurrence of an open report: counted on it, nothing new kept. Null when there is no open report of its kind. */
async function countRecurrence(d1: D1Database, providerCode: string, report: FailureReport, now: number): Promise<string | null> {
  const [row] = await database(d1)
    .update(failureReports)
    .set({ occurrences: sql`${failureReports.occurrences} + 1`, lastSeenAt: now })
    .where(
      and(
        eq(failureReports.providerCode, providerCode),
        eq(failureReports.surprise, report.surprise),
        eq(failureReports.step, report.step),
        eq(failureReports.adapterVersion, report.adapterVersion),
        isNull(failureReports.closedAt),
      ),
    )
    .returning({ id: failureReports.id });
  return row?.id ?? null;
}

/**
 * Files what the scraper kept of a page it could not read, or what a certificate check knew of crypto that would not
 * run (docs/operations.md, "Scraper failure reports"): one open report per provider, kind, step and adapter version,
 * however often it recurs (each recurrence counted), its page sealed by the vault into R2 until it expires. Every
 * occurrence also counts toward the operators' alert on its code.
 */
export async function fileReport(env: ReportsEnv, providerCode: string, origin: ReportOrigin, report: FailureReport, now: number = Date.now()): Promise<string> {
  const jobId = "jobId" in origin ? origin.jobId : null;
  const requestId = "requestId" in origin ? origin.requestId : null;
  await noteFlagged(env, report.surprise, providerCode, jobId ? `job ${jobId}` : `request ${requestId}`);
  const recurring = await countRecurrence(env.DB, providerCode, report, now);
  if (recurring) return recurring;
  const id = crypto.randomUUID();
  const hasPage = report.html !== null || report.screenshot !== null;
  if (hasPage) await env.RESULTS.put(pageKey(id), await sealText(env.VAULT_MASTER_KEY, pageBinding(id), JSON.stringify({ html: report.html, screenshot: report.screenshot })));
  try {
    await database(env.DB)
      .insert(failureReports)
      .values({
        id,
        providerCode,
        surprise: report.surprise,
        step: report.step,
        adapterVersion: report.adapterVersion,
        detail: report.detail.slice(0, 1000),
        // Without query or fragment, whatever the scraper sent (one of an older version kept them).
        url: report.url === null ? null : reportUrl(report.url),
        jobId,
        requestId,
        occurrences: 1,
        createdAt: now,
        lastSeenAt: now,
        pageKey: hasPage ? pageKey(id) : null,
        pageKeyVersion: hasPage ? latestKeyVersion(env.VAULT_MASTER_KEY) : null,
        expiresAt: now + REPORT_RETENTION_MS,
      });
    return id;
  } catch (err) {
    // Another job filed the same report first (the one-open index): ours is a recurrence of it.
    if (hasPage) await env.RESULTS.delete(pageKey(id));
    const winner = await countRecurrence(env.DB, providerCode, report, now);
    if (winner) return winner;
    throw err;
  }
}

/** Open reports first, newest first. Operators read them through domain/operators/actions.ts, which audits the read. */
export function latestReports(d1: D1Database, limit: number): Promise<ReportRow[]> {
  return database(d1).select().from(failureReports).orderBy(desc(isNull(failureReports.closedAt)), desc(failureReports.createdAt)).limit(limit);
}

export async function findReport(d1: D1Database, id: string): Promise<ReportRow | null> {
  return (await database(d1).select().from(failureReports).where(eq(failureReports.id, id)).get()) ?? null;
}

/** The page a report kept, opened; null when it kept none. */
export async function reportPage(env: Pick<Env, "RESULTS" | "VAULT_MASTER_KEY">, row: ReportRow): Promise<{ html: string | null; screenshot: string | null } | null> {
  if (!row.pageKey) return null;
  const object = await env.RESULTS.get(row.pageKey);
  return object ? JSON.parse(await openText(env.VAULT_MASTER_KEY, pageBinding(row.id), await object.text())) : null;
}

/**
 * A rotation step over reports' sealed pages (domain/key-rotation/rewrap.ts): `limit` pages past `after` under an older
 * master key version, or of an unknown one (filed before `page_key_version` was kept), each moved onto the newest in
 * R2 (the data key re-wrapped, the page never decrypted) and its version written after. A page whose object is gone
 * keeps nothing to open: its row says so (`page_key` null).
 */
export function rewrapReportPages(env: Pick<Env, "DB" | "RESULTS">, masterSecret: string, after: string | null, limit: number): Promise<RewrapTally> {
  const latest = latestKeyVersion(masterSecret);
  const db = database(env.DB);
  const r = failureReports;
  return rewrapRows(masterSecret, after, limit, {
    stale: async (newest, after, limit) =>
      (await db
        .select({ id: r.id, pageKey: r.pageKey })
        .from(r)
        .where(and(pastKey(r.id, after), isNotNull(r.pageKey), or(isNull(r.pageKeyVersion), lt(r.pageKeyVersion, newest))))
        .orderBy(asc(r.id))
        .limit(limit)
        .all()) as { id: string; pageKey: string }[],
    // Never null: a page already under the newest key still has its version to write, one of unknown version above all.
    rewrap: async (row): Promise<{ gone: true } | { page: string | null }> => {
      const object = await env.RESULTS.get(row.pageKey);
      return object ? { page: await rewrapText(masterSecret, pageBinding(row.id), await object.text()) } : { gone: true };
    },
    write: async (row, next) => {
      if ("gone" in next) return db.update(r).set({ pageKey: null, pageKeyVersion: null }).where(and(eq(r.id, row.id), eq(r.pageKey, row.pageKey)));
      if (next.page) await env.RESULTS.put(row.pageKey, next.page);
      return db.update(r).set({ pageKeyVersion: latest }).where(and(eq(r.id, row.id), sql`${r.pageKey} IS ${row.pageKey}`));
    },
  });
}

/** Closes an open report, naming the adapter change that fixed it; null when there is no open report of that id. */
export async function closeReport(d1: D1Database, id: string, closedBy: string, fixRef: string, now: number = Date.now()): Promise<ReportRow | null> {
  const [row] = await database(d1)
    .update(failureReports)
    .set({ closedAt: now, closedBy, fixRef })
    .where(and(eq(failureReports.id, id), isNull(failureReports.closedAt)))
    .returning();
  return row ?? null;
}

/** Reports past their retention, page and row, `limit` at a time (the cron, worker/index.ts). Returns how many went. */
export async function purgeExpiredReports(env: Pick<Env, "DB" | "RESULTS">, limit: number, now: number = Date.now()): Promise<number> {
  const expired = await database(env.DB)
    .select({ id: failureReports.id, pageKey: failureReports.pageKey })
    .from(failureReports)
    .where(lte(failureReports.expiresAt, now))
    .orderBy(asc(failureReports.expiresAt))
    .limit(limit);
  const keys = expired.flatMap((r) => (r.pageKey ? [r.pageKey] : []));
  if (keys.length) await env.RESULTS.delete(keys);
  for (const r of expired) await database(env.DB).delete(failureReports).where(eq(failureReports.id, r.id));
  return expired.length;
}
