import { type AnyColumn, gt, lt, type SQL, sql } from "drizzle-orm";
import { latestKeyVersion, SealedUnreadable } from "./envelope";

/**
 * What one rotation step did to a store: the rows it looked at, those no key of the keyring opens, and the key of the
 * last it looked at (null: none), where the walk goes on from (domain/key-rotation/walks.ts).
 */
export interface RewrapTally {
  seen: number;
  unreadable: number;
  last: string | null;
}

/**
 * A store of sealed secrets, as its owner gives it to a rotation step: the owner keeps its table's reads and writes
 * (test/node/table-ownership.test.ts), the step keeps the order of things.
 */
export interface SealedRows<Row extends { id: string }, Next> {
  /**
   * At most `limit` rows still sealed under an older master key version than `latest` (see `sealedBefore`), in the
   * order of their key `id`, past `after` (see `pastKey`): a walk passes a row it cannot re-wrap instead of reading it again.
   */
  stale(latest: number, after: string | null, limit: number): Promise<Row[]>;
  /** The row's secret moved onto the newest key by the vault's re-wrap with the row's binding; null: nothing to write. */
  rewrap(row: Row): Promise<Next | null>;
  /** Writes one row only if it still holds what `stale` read: a row erased or replaced meanwhile keeps what it has. */
  write(row: Row, next: Next): Promise<unknown>;
}

/** A sealed JSON column (domain/vault/envelope.ts `SealedSecret`) whose master key version is older than `latest`. */
export const sealedBefore = (column: AnyColumn, latest: number): SQL => lt(sql`json_extract(${column}, '$.kv')`, latest);

/** The rows whose key comes after `after`; no condition from the first. */
export const pastKey = (key: AnyColumn, after: string | null): SQL | undefined => (after === null ? undefined : gt(key, after));

/**
 * One batch of a rotation step over one store (domain/key-rotation/rewrap.ts), past the walk's `after`: each row
 * written on its own, so a run cut short loses nothing and the next carries on where the rows say. A row the keyring
 * cannot open is left as it is and counted apart, and the walk goes on past it; any other failure stops the run, to be
 * retried whole by the next.
 */
export async function rewrapRows<Row extends { id: string }, Next>(masterSecret: string, after: string | null, limit: number, store: SealedRows<Row, Next>): Promise<RewrapTally> {
  const rows = await store.stale(latestKeyVersion(masterSecret), after, limit);
  let unreadable = 0;
  for (const row of rows) {
    let next: Next | null;
    try {
      next = await store.rewrap(row);
    } catch (error) {
      if (!(error instanceof SealedUnreadable)) throw error;
      unreadable++;
      continue;
    }
    if (next !== null) await store.write(row, next);
  }
  return { seen: rows.length, unreadable, last: rows.at(-1)?.id ?? null };
}
