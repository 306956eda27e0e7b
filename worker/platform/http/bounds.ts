import { z } from "@hono/zod-openapi";

/**
 * The size limits the document states for strings, numbers and lists (OWASP API4, checked by
 * test/node/worker/openapi-lint.test.ts): in requests they are enforced by the route's schema, so a value past one is
 * 400 INVALID_PARAM_FORMAT with a Korean fieldErrors message (platform/http/validation-hook.ts); in responses they say what the
 * service writes. Limits a feature owns (a webhook URL's 2048, a label's 256, the spec's 128 for clientReferenceId)
 * stay beside it.
 */
export const MAX = {
  /** A path id: a uuid is 36 characters; anything longer is no id of ours. */
  id: 64,
  /** Provider codes, schema ids and other catalog identifiers. */
  code: 64,
  /** Names people give (API keys, clients). */
  name: 100,
  /** Korean messages and labels the service writes, DNs and masked identifiers. */
  text: 1000,
  /** An ISO 8601 time with offset and fractions of a second. */
  timestamp: 40,
  /** Opaque paging cursors (about 150 characters today). */
  cursor: 512,
  /** Secrets and tokens the service issues (an API key, a webhook secret, a session token), about 50 characters. */
  secret: 256,
  /** A URL the service writes. */
  url: 2048,
  /** Items of a list answered in one response. */
  items: 1000,
} as const;

/** 2^53 - 1: counts and durations are exact JSON numbers. */
const SAFE = Number.MAX_SAFE_INTEGER;

/** A time as the API writes and reads it: ISO 8601 (UTC in responses). */
export const timestamp = () => z.iso.datetime().max(MAX.timestamp);
/** A uuid id in a response. */
export const uuid = () => z.uuid().max(36);
/** A path id: looked up as given, so only its length is bounded here; an unknown one is 404. */
export const pathId = () => z.string().max(MAX.id);
/** A catalog identifier (provider code, schema id). */
export const code = () => z.string().max(MAX.code);
/** A Korean message or label the service writes. */
export const text = () => z.string().max(MAX.text);
/** An opaque cursor: the next page's in a response, the previous response's in a request. */
export const cursor = () => z.string().max(MAX.cursor);

/** A whole number from `min` to `max` that fits 32 bits. */
export const int32 = (min: number, max: number) => z.number().int().min(min).max(max).meta({ format: "int32" });
/** A count or a duration: 0 up to 2^53 - 1. */
export const count = () => z.number().int().min(0).max(SAFE).meta({ format: "int64" });
