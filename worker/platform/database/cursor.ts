import { and, eq, lt, or, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { ApiError } from "../errors/api-error";
import { base64UrlDecode, base64UrlEncode } from "../../../contracts/base64url";
import { hmacKey, toHex } from "../lib/crypto";
import { timingSafeEqualHex } from "../lib/timing-safe-equal";

/** Position after the last item of a page, in the list's (createdAt, id) descending order. */
export interface CursorPosition {
  createdAt: number;
  id: string;
}

/** One page of a list: at most `limit` rows past `after` (the previous page's last). */
export interface ListPage {
  limit: number;
  after: CursorPosition | undefined;
}

/** The rows past a page's last item in (createdAt, id) descending order; no condition for the first page. */
export function pastPosition(createdAt: SQLiteColumn, id: SQLiteColumn, after: CursorPosition | undefined): SQL | undefined {
  return after ? or(lt(createdAt, after.createdAt), and(eq(createdAt, after.createdAt), lt(id, after.id))) : undefined;
}

/**
 * A cursor is bound to the workspace and the filters it was issued for, so it
 * cannot be replayed elsewhere; the MAC makes it tamper-proof.
 */
async function mac(secret: string, payload: string, scope: string): Promise<string> {
  const key = await hmacKey(secret);
  const sig = await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(`${scope}\n${payload}`));
  return toHex(new Uint8Array(sig)).slice(0, 32);
}

export async function encodeCursor(secret: string, scope: string, position: CursorPosition): Promise<string> {
  const payload = JSON.stringify([position.createdAt, position.id]);
  const signed = JSON.stringify({ p: payload, m: await mac(secret, payload, scope) });
  return base64UrlEncode(new TextEncoder().encode(signed));
}

/** INVALID_CURSOR on the field that carried the token; a message replaces the catalog's, which speaks of list pages. */
export const invalidCursor = (field: string, message?: string) =>
  new ApiError("INVALID_CURSOR", {
    ...(message ? { message } : {}),
    fieldErrors: [{ field, code: "INVALID_CURSOR", message: message ?? "cursor 값이 올바르지 않습니다." }],
  });

const invalid = () => invalidCursor("query.cursor");

export async function decodeCursor(secret: string, scope: string, cursor: string): Promise<CursorPosition> {
  const bytes = base64UrlDecode(cursor);
  if (!bytes) throw invalid();
  try {
    const { p, m } = JSON.parse(new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes)) as { p: unknown; m: unknown };
    if (typeof p !== "string" || typeof m !== "string" || !timingSafeEqualHex(m, await mac(secret, p, scope))) throw invalid();
    const [createdAt, id] = JSON.parse(p) as [number, string];
    return { createdAt, id };
  } catch {
    throw invalid();
  }
}
