import { drizzle } from "drizzle-orm/d1";

export type Database = ReturnType<typeof database>;

/**
 * Drizzle over the binding, without the schema: no code uses the relational query API (`db.query`), and handing
 * drizzle the schema made it rebuild the tables' relational configuration on every call (4.5% of a job create's CPU
 * in the worker's profile, docs/benchmarks.md). Queries name their tables from each owner's tables.ts directly.
 */
export function database(d1: D1Database) {
  return drizzle(d1);
}

/**
 * A drizzle query as a D1 statement, for a batch that joins it to statements another owner hands over as D1
 * statements (drizzle's own batch takes only its queries).
 */
export function statementOf(d1: D1Database, query: { toSQL(): { sql: string; params: unknown[] } }): D1PreparedStatement {
  const { sql: text, params } = query.toSQL();
  return d1.prepare(text).bind(...params);
}

/**
 * A failed drizzle query's text without its parameters, for a log line: drizzle names the bound values (an e-mail,
 * an address, a token's hash) after `params:`, and a log keeps none of them.
 */
export const withoutQueryParams = (text: string | undefined): string | undefined => text?.replace(/\nparams: .*/g, "");
