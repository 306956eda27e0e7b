import { env } from "cloudflare:workers";
import { jobResultsPrefix } from "../../../worker/domain/results/keys";
import { bankTransaction as tx, jobInWorkspace, type TestWorkspace } from "./helpers";

/**
 * What retention's tests read of a job: its row, its units' commits (the marks in its plan and its units' rows), its
 * plan and its stored objects, as they are in storage.
 */
export const jobRowOf = (jobId: string) => env.DB.prepare("SELECT * FROM jobs WHERE id = ?").bind(jobId).first<Record<string, any>>();
export const unitCommits = async (jobId: string) =>
  (await env.DB.prepare(
    `SELECT (SELECT count(*) FROM task_units WHERE job_id = ?1)
          + (SELECT count(*) FROM job_plans, json_each(job_plans.units) AS e WHERE job_plans.job_id = ?1 AND json_extract(e.value, '$.committed') IS NOT NULL) AS n`,
  ).bind(jobId).first<{ n: number }>())!.n;
export const planRows = async (jobId: string) => (await env.DB.prepare("SELECT count(*) AS n FROM job_plans WHERE job_id = ?").bind(jobId).first<{ n: number }>())!.n;
export const storedObjects = async (jobId: string) => (await env.RESULTS.list({ prefix: jobResultsPrefix(jobId) })).objects.length;

/** A succeeded job of the workspace: three records in two units, stored as the pipeline stores them. */
export const finishedJob = (ws: Pick<TestWorkspace, "workspaceId">) => jobInWorkspace(ws.workspaceId, [[tx("a", "급여", 10), tx("b", "이체", -5)], [tx("c", null, 1)]], [0, 1]);

/** Moves a job's results expiry, as if that much time had passed. */
export const expireAt = (jobId: string, at: number) => env.DB.prepare("UPDATE jobs SET results_expire_at = ? WHERE id = ?").bind(at, jobId).run();
