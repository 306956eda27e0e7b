import { database } from "../../platform/database/client";
import { rewrapWalks } from "./tables";

/**
 * Longer than anything an older deployment still runs once a new keyring is deployed (a queue consumer's 15 minutes
 * of wall time at most): until then it may seal under its own newest version, an older one, rows a first pass has
 * already passed. A pass that starts this long after the keyring was first seen finds them all.
 */
export const REWRAP_SETTLE_MS = 3_600_000;

export type RewrapWalk = typeof rewrapWalks.$inferSelect;

/** Every store's walk, in one query: the only read of a run once every walk has settled. */
export async function rewrapWalksNow(d1: D1Database): Promise<Map<string, RewrapWalk>> {
  return new Map((await database(d1).select().from(rewrapWalks).all()).map((walk) => [walk.store, walk]));
}

/**
 * Where a store's walk goes on this run, null when it reads nothing: a keyring of other versions than the walk's starts
 * a walk from the first row; a finished pass is followed by one more once REWRAP_SETTLE_MS has passed since the
 * keyring was first seen, and nothing after that until the keyring changes (new secrets are sealed under its newest).
 */
export function walkOnThisRun(walk: RewrapWalk | undefined, store: string, keyring: string, now: number): RewrapWalk | null {
  if (!walk || walk.keyring !== keyring) return { store, keyring, since: now, passStartedAt: now, after: null, passDone: false };
  if (!walk.passDone) return walk;
  const settled = walk.passStartedAt - walk.since >= REWRAP_SETTLE_MS;
  if (settled || now - walk.since < REWRAP_SETTLE_MS) return null;
  return { ...walk, passStartedAt: now, after: null, passDone: false };
}

export async function saveWalk(d1: D1Database, walk: RewrapWalk): Promise<void> {
  const { keyring, since, passStartedAt, after, passDone } = walk;
  await database(d1).insert(rewrapWalks).values(walk).onConflictDoUpdate({ target: rewrapWalks.store, set: { keyring, since, passStartedAt, after, passDone } });
}
