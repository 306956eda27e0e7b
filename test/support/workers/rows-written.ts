/**
 * A D1 binding that counts the rows its batches write, as D1 reports them for each statement (D1 bills every index a
 * write touches as a row written), and `during(work)`: the rows written while `work` ran.
 */
export function rowsWrittenMeter(db: D1Database): { db: D1Database; during(work: () => Promise<unknown>): Promise<number> } {
  let written = 0;
  const counting = new Proxy(db, {
    get(target, prop) {
      if (prop === "batch") {
        return async (statements: D1PreparedStatement[]) => {
          const results = await target.batch(statements);
          written += results.reduce((n, r) => n + (r.meta.rows_written ?? 0), 0);
          return results;
        };
      }
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return {
    db: counting,
    async during(work) {
      const before = written;
      await work();
      return written - before;
    },
  };
}
