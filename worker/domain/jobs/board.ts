import { jobBoard } from "./job-board";
import { IsolateMemory } from "../../platform/lib/isolate-memory";
import { findJob, isFinished, type JobRow } from "./store";

type BoardEnv = Pick<Env, "DB" | "JOB_BOARD">;

/** An InProgress entry older than this is checked against D1, in case a publish was lost. */
export const FRESH_MS = 15_000;

/**
 * Tells the workspace's board about a job's latest row; every transition of jobs/ after creation calls it after
 * writing D1. This isolate's copy of a finished job is dropped, as an early deletion of its results changes it.
 */
export async function publishJob(env: BoardEnv, row: JobRow): Promise<void> {
  await jobBoard(env, row.workspaceId).put(row);
  finished.forget(`${row.workspaceId}/${row.id}`);
}

/**
 * Finished jobs hardly change again (no transition leaves SUCCEEDED or FAILED, and jobs are never purged; only an early
 * deletion of their results moves `resultsExpireAt`), so this isolate keeps the last 1,000 it read: reading a finished
 * job again, as a partner does after its webhook and for its results, asks no object. Another isolate's copy may show
 * a deleted job's earlier expiry for a while; its results are refused at once all the same (jobs/results-rows.ts resultUnits reads D1).
 */
const finished = new IsolateMemory<JobRow>(1_000);

function keepIfFinished(key: string, row: JobRow): JobRow {
  return isFinished(row) ? finished.keep(key, row) : row;
}

/**
 * A job as its workspace sees it: kept in this isolate once finished; from the board when the entry is final or
 * fresh; otherwise from D1 (which then refreshes the board).
 */
export async function readJob(env: BoardEnv, workspaceId: string, id: string, now = Date.now()): Promise<JobRow | null> {
  const key = `${workspaceId}/${id}`;
  const kept = finished.get(key);
  if (kept) return kept;
  const entry = await jobBoard(env, workspaceId).get(id);
  const cached = entry && (JSON.parse(entry.row) as JobRow);
  if (cached && (isFinished(cached) || now - entry.cachedAt < FRESH_MS)) return keepIfFinished(key, cached);
  const row = await findJob(env.DB, workspaceId, id);
  if (!row) return null;
  await publishJob(env, row);
  return keepIfFinished(key, row);
}
