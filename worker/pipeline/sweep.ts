import { findProvider } from "../catalog/providers";
import { jobError } from "../../collectors/job-failures";
import type { PipelineDeps } from "./ports";

/** A job still PENDING after this long was never picked up (lost message, consumer down). */
export const PENDING_ORPHAN_MS = 10 * 60_000;
/** A RUNNING job with no progress for this long has lost its unit chain; longer than any retry delay. */
export const STALL_MS = 3 * 60_000;

interface SweptJob {
  id: string;
  workspace_id: string;
  credential_id: string | null;
  provider_code: string;
}

/**
 * The scheduled sweep: fails jobs past their wait budget (JOB_TIMEOUT) and
 * jobs that never started (PENDING_ORPHAN), and restarts stalled unit chains.
 */
export async function sweep(d1: D1Database, deps: PipelineDeps): Promise<{ timedOut: number; orphaned: number; resumed: number }> {
  const now = deps.now();
  const select = (where: string, ...binds: unknown[]) =>
    d1.prepare(`SELECT id, workspace_id, credential_id, provider_code FROM jobs WHERE ${where} LIMIT 500`).bind(...binds).all<SweptJob>();

  const fail = async (jobs: SweptJob[], code: "JOB_TIMEOUT" | "PENDING_ORPHAN") => {
    let count = 0;
    for (const job of jobs) {
      const failed = await deps.state.fail(job.id, jobError(code), now);
      if (!failed) continue;
      count++;
      await deps.publish(failed);
      const sessionId = job.credential_id ? await deps.lockFor(job.credential_id).release(job.id) : null;
      if (sessionId) await deps.scraperFor(findProvider(job.provider_code)!).closeSession(sessionId);
    }
    return count;
  };

  const timedOut = await fail((await select("status IN ('PENDING', 'RUNNING') AND deadline_at <= ?", now)).results, "JOB_TIMEOUT");
  const orphaned = await fail((await select("status = 'PENDING' AND created_at <= ?", now - PENDING_ORPHAN_MS)).results, "PENDING_ORPHAN");

  let resumed = 0;
  for (const job of (await select("status = 'RUNNING' AND updated_at <= ?", now - STALL_MS)).results) {
    const next = await deps.state.firstQueuedUnit(job.id);
    if (next === null) continue;
    await d1.prepare("UPDATE jobs SET updated_at = ? WHERE id = ?").bind(now, job.id).run();
    await deps.enqueue({ type: "unit", jobId: job.id, workspaceId: job.workspace_id, unitIndex: next });
    resumed++;
  }
  return { timedOut, orphaned, resumed };
}
