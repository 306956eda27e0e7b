import { drizzle } from "drizzle-orm/d1";

export type Database = ReturnType<typeof database>;

/**
 * Drizzle over the binding, without the schema: no code uses the relational query API (`db.query`), and handing
 * drizzle the schema made it rebuild the tables' relational configuration on every call (4.5% of a job create's CPU
 * in the worker's profile, docs/benchmarks.md). Queries name their tables from ./tables directly.
 */
export function database(d1: D1Database) {
  return drizzle(d1);
}
