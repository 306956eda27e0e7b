import { type AnyColumn, type SQL, sql } from "drizzle-orm";

/**
 * `column` holds `term` anywhere, as typed: `%` and `_` in the term are matched as themselves, not as LIKE's
 * wildcards (a company named "100%상사" finds only itself). SQLite's LIKE ignores ASCII case, as people searching do.
 */
export function contains(column: AnyColumn, term: string): SQL {
  const pattern = `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return sql`${column} LIKE ${pattern} ESCAPE '\\'`;
}
