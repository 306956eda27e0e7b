import { isoTime } from "../../platform/lib/iso-time";
import type { RequestLogRow } from "./tables";

/** A request as a list shows it: who sent what, and how it was answered. */
export function requestLogItem(row: RequestLogRow) {
  return {
    requestId: row.id,
    createdAt: isoTime(row.createdAt),
    method: row.method,
    path: row.path,
    status: row.status,
    errorCode: row.errorCode,
    latencyMs: row.latencyMs,
    apiKey: { id: row.apiKeyId, prefix: row.apiKeyPrefix },
    idempotencyKey: row.idempotencyKey,
    repeatCount: row.repeatCount,
  };
}

/** A request with what it sent, redacted (redaction.ts), and the error envelope it got. */
export function requestLogDetail(row: RequestLogRow) {
  return { ...requestLogItem(row), request: { query: row.query, body: row.body ?? null }, errorBody: row.errorBody ?? null };
}
