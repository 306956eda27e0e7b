import { and, desc, eq, lt } from "drizzle-orm";
import { database } from "../../platform/database/client";
import { operatorAudit } from "./tables";
import { ApiError } from "../../platform/errors/api-error";
import type { CursorPosition } from "../../platform/database/cursor";
import type { Operator } from "./store";
import { log } from "../../platform/observability/telemetry";

export type AuditRow = typeof operatorAudit.$inferSelect;

export interface AuditEntry {
  action: string;
  targetKind: string;
  targetId: string;
  /** Required of every change; null for a look. */
  reason: string | null;
  detail?: Record<string, unknown>;
}

/**
 * Writes the line before the action takes effect: an action whose line cannot be written does not happen
 * (ADMIN_ACTION_NOT_MARKED), so nothing an operator does or sees is missing from the log.
 */
export async function markAction(d1: D1Database, operator: Pick<Operator, "id" | "email">, requestId: string, entry: AuditEntry, now: number = Date.now()): Promise<void> {
  try {
    await database(d1)
      .insert(operatorAudit)
      .values({ operatorId: operator.id, operatorEmail: operator.email, requestId, at: now, ...entry, detail: entry.detail ?? null });
  } catch (err) {
    log("error", "operator-audit-write-failed", { requestId, action: entry.action, error: String(err) });
    throw new ApiError("ADMIN_ACTION_NOT_MARKED", { message: "감사 기록을 남기지 못해 관리 작업을 수행하지 않았습니다. 잠시 후 다시 시도해 주세요." });
  }
}

/** A line as paging reads it (platform/http/paging.ts): its id (which orders the log) as text, `createdAt` when it was written. */
export type AuditLine = Omit<AuditRow, "id" | "at"> & CursorPosition;

/** The log newest first, optionally of one target or one operator: `limit` + 1 lines past `after`. */
export async function auditLines(
  d1: D1Database,
  query: { targetKind?: string; targetId?: string; operatorId?: string; after?: CursorPosition; limit: number },
): Promise<AuditLine[]> {
  const where = and(
    query.targetKind ? eq(operatorAudit.targetKind, query.targetKind) : undefined,
    query.targetId ? eq(operatorAudit.targetId, query.targetId) : undefined,
    query.operatorId ? eq(operatorAudit.operatorId, query.operatorId) : undefined,
    query.after ? lt(operatorAudit.id, Number(query.after.id)) : undefined,
  );
  const rows = await database(d1).select().from(operatorAudit).where(where).orderBy(desc(operatorAudit.id)).limit(query.limit + 1);
  return rows.map(({ id, at, ...line }) => ({ ...line, id: String(id), createdAt: at }));
}
