import { jobBoard } from "../durable-objects/job-board";
import type { Bindings } from "../env";
import { findJob, type JobRow } from "./store";

type BoardEnv = Pick<Bindings, "DB" | "JOB_BOARD">;

/** An InProgress entry older than this is checked against D1, in case a publish was lost. */
export const FRESH_MS = 15_000;

/** Tells the workspace's board about a job's latest row; every transition of jobs/ after creation calls it after writing D1. */
export async function publishJob(env: BoardEnv, row: JobRow): Promise<void> {
  await jobBoard(env, row.workspaceId).put(row);
}

/**
 * A job as its workspace sees it: from the board when the entry is final or
 * fresh, otherwise from D1 (which then refreshes the board).
 */
export async function readJob(env: BoardEnv, workspaceId: string, id: string, now = Date.now()): Promise<JobRow | null> {
  const entry = await jobBoard(env, workspaceId).get(id);
  const cached = entry && (JSON.parse(entry.row) as JobRow);
  if (cached && (cached.status === "SUCCEEDED" || cached.status === "FAILED" || now - entry.cachedAt < FRESH_MS)) return cached;
  const row = await findJob(env.DB, workspaceId, id);
  if (row) await publishJob(env, row);
  return row;
}
