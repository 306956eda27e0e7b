/** Workspaces and jobs as partners run them, for the benchmarks that run many jobs (scale.ts, capacity.ts). */
import { newApiKey, type WorkspaceSeed } from "../scripts/demo-seed";

/** Polls that got no answer (in time, or a dropped connection) and were sent again, as a client would: printed, since each is a stall to explain. */
export const stalls = { unansweredPolls: 0 };
export const POLL_TIMEOUT_MS = 30_000;

async function poll(url: string, headers: Record<string, string>): Promise<Record<string, unknown>> {
  for (;;) {
    try {
      return (await (await fetch(url, { headers, signal: AbortSignal.timeout(POLL_TIMEOUT_MS) })).json()) as Record<string, unknown>;
    } catch (err) {
      // undici says "fetch failed" for a connection the local server closed under the request.
      if (!(err instanceof Error && (err.name === "TimeoutError" || err.message === "fetch failed"))) throw err;
      stalls.unansweredPolls++;
    }
  }
}

/** Workspaces with one sandbox bank login each, so their jobs never wait on each other's credential. */
export function bankLoginWorkspaces(count: number, name: string): WorkspaceSeed[] {
  return Array.from({ length: count }, (_, i) => ({
    workspaceId: crypto.randomUUID(),
    name: `${name} ${i}`,
    apiKey: newApiKey(),
    login: { loginId: "user_good", password: "pass_good" },
  }));
}

export interface JobRun {
  /** The create's answer, from sending it. */
  createMs: number;
  /** From the create's answer to the first poll that saw the job past PENDING: the queue, the lock, the login and planning (for one unit, often all of it). */
  pendingMs: number;
  /** From then to the end: the units planning handed on. */
  runMs: number;
  /** From sending the create to the poll that saw the job end. */
  totalMs: number;
  endedAt: number;
  kind: string;
  error?: unknown;
}

/** Creates a job and polls it every `pollMs` until it ends, as a partner's client would. A refused create ends it as `NotCreated`. */
export async function runJob(baseUrl: string, apiKey: string, job: Record<string, unknown>, pollMs: number): Promise<JobRun> {
  const headers = { Authorization: `Bearer ${apiKey}`, "Content-Type": "application/json" };
  const started = performance.now();
  const created = await fetch(`${baseUrl}/api/v1/data-jobs`, { method: "POST", headers, body: JSON.stringify(job) });
  const answered = performance.now();
  const body = (await created.json()) as { id?: string; code?: string };
  // A refused create is a failed job of the run, with what the API said.
  if (!body.id) return { createMs: answered - started, pendingMs: 0, runMs: 0, totalMs: answered - started, endedAt: answered, kind: "NotCreated", error: { status: created.status, code: body.code } };
  let running: number | null = null;
  for (;;) {
    const seen = await poll(`${baseUrl}/api/v1/data-jobs/${body.id}`, headers);
    const now = performance.now();
    if (running === null && !(seen.kind === "InProgress" && seen.phase === "PENDING")) running = now;
    if (seen.kind !== "InProgress") {
      return { createMs: answered - started, pendingMs: running! - answered, runMs: now - running!, totalMs: now - started, endedAt: now, kind: String(seen.kind), error: seen.error };
    }
    await new Promise((r) => setTimeout(r, pollMs));
  }
}

export const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
