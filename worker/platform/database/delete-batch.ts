/**
 * Deletes at most `limit` rows of `table` matching `where` (its `?` bound to `binds`) and says how many went: one
 * bounded statement of a retention purge (worker/domain/retention/purge.ts). The owning module names its table and
 * condition, and the column that names a row: `rowid`, or a WITHOUT ROWID table's primary key (which has no rowid).
 */
export async function deleteBatch(d1: D1Database, table: string, where: string, binds: unknown[], limit: number, key = "rowid"): Promise<number> {
  // Raw: its callers (seven owners' retention purges) name the table and condition as SQL text, not as drizzle objects.
  const { meta } = await d1.prepare(`DELETE FROM ${table} WHERE ${key} IN (SELECT ${key} FROM ${table} WHERE ${where} LIMIT ?)`).bind(...binds, limit).run();
  return meta.changes;
}
