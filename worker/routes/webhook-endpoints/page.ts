import { type CursorPosition, decodeCursor, encodeCursor } from "../../jobs/cursor";

/** Cursor paging as GET /data-jobs does it: a cursor bound to `scope`, rows fetched one past `limit` to tell whether more follow. */
export async function paged<R extends CursorPosition, V>(
  secret: string,
  scope: string,
  query: { cursor?: string; limit: number },
  fetch: (after: CursorPosition | undefined) => Promise<R[]>,
  view: (row: R) => V,
): Promise<{ items: V[]; nextCursor: string | null }> {
  const after = query.cursor === undefined ? undefined : await decodeCursor(secret, scope, query.cursor);
  const rows = await fetch(after);
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  return { items: page.map(view), nextCursor: rows.length > query.limit && last ? await encodeCursor(secret, scope, last) : null };
}
