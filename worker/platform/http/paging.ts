import { z } from "@hono/zod-openapi";
import { type CursorPosition, decodeCursor, encodeCursor } from "../database/cursor";
import { cursor } from "./bounds";

/** The most rows one page answers (spec: limit 1-100, default 20). */
export const MAX_PAGE = 100;

export const PageQuerySchema = z.object({
  cursor: cursor().optional().meta({ description: "이전 응답의 nextCursor" }),
  limit: z.coerce.number().int().min(1).max(MAX_PAGE).default(20).meta({ description: "1-100, 기본 20", format: "int32" }),
});

/** A list answer as the spec's data job page has it: `items` and `nextCursor`, named for the document. */
export function pageSchema<T extends z.ZodType>(item: T, name: string) {
  return z.object({ items: z.array(item).max(MAX_PAGE), nextCursor: cursor().nullable().meta({ description: "다음 페이지 커서. 마지막 페이지면 null" }) }).openapi(name);
}

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
