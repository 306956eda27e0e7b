import type { RequestLogEntry } from "./messages";
import { redact } from "./redaction";

/** What the API's middleware saw of an answered request (api/request-log.ts); the slow parts still promised. */
export interface AnsweredRequest {
  requestId: string;
  workspaceId: string;
  apiKeyId: string;
  apiKeyPrefix: string;
  method: string;
  path: string;
  status: number;
  latencyMs: number;
  idempotencyKey: string | undefined;
  query: Record<string, string[]>;
  /** The body's text when the route read it, else undefined: an unread body is never read for the log. */
  bodyText: Promise<string> | undefined;
  /** The error envelope of a JSON error answer, else undefined. */
  errorEnvelope: Promise<unknown> | undefined;
  startedAt: number;
}

const MAX_PATH = 512;
const MAX_METHOD = 16;
/** The spec's bound of an Idempotency-Key; a longer one was refused, and its first characters say enough. */
const MAX_IDEMPOTENCY_KEY = 128;
const MAX_ERROR_CODE = 64;

/** JSON text parsed, or null when it is not JSON: text that does not parse is never kept, as it cannot be redacted by field. */
function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

const settled = <T>(promise: Promise<T> | undefined): Promise<T | undefined> => (promise ?? Promise.resolve(undefined)).catch(() => undefined);

/** A query's values, one string where the name came once, redacted by name like a body. */
function queryOf(query: Record<string, string[]>): Record<string, unknown> | null {
  const names = Object.keys(query);
  if (names.length === 0) return null;
  return redact(Object.fromEntries(names.map((name) => [name, query[name]!.length === 1 ? query[name]![0] : query[name]]))) as Record<string, unknown>;
}

function errorCodeOf(envelope: unknown): string | null {
  const code = envelope !== null && typeof envelope === "object" ? (envelope as { code?: unknown }).code : undefined;
  return typeof code === "string" ? code.slice(0, MAX_ERROR_CODE) : null;
}

/** The row a request leaves: every value bounded, and nothing of a secret, a credential or a record (redaction.ts). */
export async function requestLogEntry(answered: AnsweredRequest): Promise<RequestLogEntry> {
  const [bodyText, envelope] = await Promise.all([settled(answered.bodyText), settled(answered.errorEnvelope)]);
  const body = bodyText ? redact(parsed(bodyText)) : null;
  return {
    id: answered.requestId,
    workspaceId: answered.workspaceId,
    apiKeyId: answered.apiKeyId,
    apiKeyPrefix: answered.apiKeyPrefix,
    method: answered.method.slice(0, MAX_METHOD),
    path: answered.path.slice(0, MAX_PATH),
    status: answered.status,
    errorCode: errorCodeOf(envelope),
    latencyMs: Math.max(0, Math.round(answered.latencyMs)),
    idempotencyKey: answered.idempotencyKey?.slice(0, MAX_IDEMPOTENCY_KEY) ?? null,
    query: queryOf(answered.query),
    body,
    errorBody: envelope === undefined ? null : redact(envelope),
    createdAt: answered.startedAt,
  };
}
