import type { Bindings } from "../env";
import { findJob } from "./store";
import type { JobRow } from "./store";

/** An InProgress entry older than this is checked against D1, in case a publish was lost. */
export const FRESH_MS = 15_000;

const board = (env: Bindings, workspaceId: string) => env.JOB_BOARD.get(env.JOB_BOARD.idFromName(workspaceId));

/** Tells the workspace's board about a job's latest row; called after every D1 transition. */
export async function publishJob(env: Bindings, row: JobRow): Promise<void> {
  await board(env, row.workspaceId).put(row);
}

/**
 * A job as its workspace sees it: from the board when the entry is final or
 * fresh, otherwise from D1 (which then refreshes the board).
 */
export async function readJob(env: Bindings, workspaceId: string, id: string, now = Date.now()): Promise<JobRow | null> {
  // RPC typing cannot express JobRow's free-form params; the object round-trips as stored.
  const cached = (await board(env, workspaceId).get(id)) as unknown as { row: JobRow; cachedAt: number } | null;
  if (cached && (cached.row.status === "SUCCEEDED" || cached.row.status === "FAILED" || now - cached.cachedAt < FRESH_MS)) return cached.row;
  const row = await findJob(env.DB, workspaceId, id);
  if (row) await publishJob(env, row);
  return row;
}
