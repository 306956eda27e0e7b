import { sha256Hex } from "../../platform/lib/crypto";
import type { RequestLogEntry } from "./messages";
import { cardMasked, redact, TRUNCATED } from "./redaction";

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
  /**
   * The body's text when the route read it and allows it in the log (api/request-log.ts, `LOGS_BODY`), else undefined:
   * an unread body is never read for the log.
   */
  bodyText: Promise<string> | undefined;
  /** The error envelope of a JSON error answer, else undefined. */
  errorEnvelope: Promise<unknown> | undefined;
  /** The 200 answer's text of a route whose repeats fold, as the route made it (api/request-log.ts, FOLDS_REPEATS), else undefined. */
  answerText: string | undefined;
  startedAt: number;
}

const MAX_PATH = 512;
const MAX_METHOD = 16;
/** The spec's bound of an Idempotency-Key; a longer one was refused, and its first characters say enough. */
const MAX_IDEMPOTENCY_KEY = 128;
const MAX_ERROR_CODE = 64;
/**
 * What a row keeps of the query, the body and the error envelope, each as UTF-8 JSON: with the path and the rest a row
 * stays under 5 KB whatever the request carried (docs/request-logs.md, "Bounds"). A part past its bound is kept as
 * `{ "[TRUNCATED]": true, bytes, preview }`: the size it had and its first characters, already redacted.
 */
const MAX_PART_BYTES = { query: 1024, body: 2048, errorBody: 1024 } as const;
const MINUTE_MS = 60_000;

const utf8 = new TextEncoder();
export const byteLength = (text: string): number => utf8.encode(text).length;

function capped(value: unknown, maxBytes: number): unknown {
  if (value === null || value === undefined) return value ?? null;
  const text = JSON.stringify(value);
  const bytes = byteLength(text);
  if (bytes <= maxBytes) return value;
  // A third of the bound in characters: a Korean character is three bytes, and the marker's own fields need room.
  return { [TRUNCATED]: true, bytes, preview: text.slice(0, Math.floor(maxBytes / 3)) };
}

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

/** A rate limit's refusals, folded per key and minute: a row of them is not charged to the day's budget (budget.ts). */
export const isRefusalFold = (entry: Pick<RequestLogEntry, "collapseKey" | "errorCode">): boolean => !!entry.collapseKey && entry.errorCode === "API_RATE_LIMITED";

/**
 * Where a request's row folds into another's (`collapseKey`), or null: a rate limit's refusals by key and minute, and
 * a repeated read answered the same (FOLDS_REPEATS) by key, minute and a hash of what was asked and answered, so a
 * row stands only for requests that sent and got the same. Neither row keeps what the hash covers beyond the first's.
 */
async function collapseKeyOf(answered: AnsweredRequest, refused: boolean): Promise<string | null> {
  const minute = `${answered.apiKeyId}:${answered.startedAt - (answered.startedAt % MINUTE_MS)}`;
  if (refused) return minute;
  if (answered.answerText === undefined) return null;
  return `${minute}:${await foldDigest([answered.workspaceId, answered.method, answered.path, answered.query, answered.status], answered.answerText)}`;
}

/** How many asks' last answers and digests an isolate keeps, and the longest answer kept: at most some 1 MB of them. */
const FOLD_DIGESTS_KEPT = 256;
const MAX_KEPT_FOLD_TEXT = 2048;
const foldDigests = new Map<string, { answer: string; digest: string }>();

/**
 * The digest of what was asked and answered, kept by the isolate with the ask's last answer: a job polled until it
 * changes is asked the same and answers the same poll after poll, and hashing it again each time was a fifth of a job
 * detail's CPU (docs/benchmarks.md, stop 68); keyed by the short ask and compared with its answer, a poll neither
 * copies nor hashes the answer's text again (stop 71). The oldest ask goes first once FOLD_DIGESTS_KEPT are kept; an
 * answer longer than MAX_KEPT_FOLD_TEXT is hashed and not kept.
 */
async function foldDigest(asked: unknown[], answer: string): Promise<string> {
  const ask = JSON.stringify(asked);
  const kept = foldDigests.get(ask);
  if (kept?.answer === answer) return kept.digest;
  // The text hashed is the one a fold has always had (the ask's values and the answer, one JSON array): a deploy splits no minute's fold.
  const digest = await sha256Hex(JSON.stringify([...asked, answer]));
  foldDigests.delete(ask);
  if (answer.length > MAX_KEPT_FOLD_TEXT) return digest;
  if (foldDigests.size >= FOLD_DIGESTS_KEPT) foldDigests.delete(foldDigests.keys().next().value!);
  foldDigests.set(ask, { answer, digest });
  return digest;
}

/**
 * The row a request leaves: every value bounded, and nothing of a secret, a credential, a card number or a record
 * (redaction.ts). A rate limit's 429 keeps neither query nor envelope and carries its key's minute (`collapseKey`): a key hammering
 * the limit leaves a row a minute, counting its refusals, not a row each. A job's polls answered the same fold alike.
 */
export async function requestLogEntry(answered: AnsweredRequest): Promise<RequestLogEntry> {
  const [bodyText, envelope] = await Promise.all([settled(answered.bodyText), settled(answered.errorEnvelope)]);
  const errorCode = errorCodeOf(envelope);
  const refused = errorCode === "API_RATE_LIMITED";
  return {
    id: answered.requestId,
    workspaceId: answered.workspaceId,
    apiKeyId: answered.apiKeyId,
    apiKeyPrefix: answered.apiKeyPrefix,
    method: answered.method.slice(0, MAX_METHOD),
    path: cardMasked(answered.path).slice(0, MAX_PATH),
    status: answered.status,
    errorCode,
    latencyMs: Math.max(0, Math.round(answered.latencyMs)),
    idempotencyKey: answered.idempotencyKey === undefined ? null : cardMasked(answered.idempotencyKey).slice(0, MAX_IDEMPOTENCY_KEY),
    query: refused ? null : (capped(queryOf(answered.query), MAX_PART_BYTES.query) as Record<string, unknown> | null),
    body: bodyText ? capped(redact(parsed(bodyText)), MAX_PART_BYTES.body) : null,
    errorBody: envelope === undefined || refused ? null : capped(redact(envelope), MAX_PART_BYTES.errorBody),
    createdAt: answered.startedAt,
    collapseKey: await collapseKeyOf(answered, refused),
    repeatCount: 1,
  };
}
