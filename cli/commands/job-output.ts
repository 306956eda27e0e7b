import { type CollectClient, type DataJob, type DataJobListItem, type TerminalDataJob } from "../../client/src/index";
import type { Context } from "../context";
import { EXIT, type ExitCode } from "../exit-codes";
import { fields, json, progressReporter, table, timeLeft } from "../output";

/** A job as label/value lines for people. */
function jobFields(job: DataJob): Record<string, unknown> {
  const base = { id: job.id, kind: job.kind, provider: job.providerCode, schema: job.schema, credential: job.credentialId ?? "-" };
  if (job.kind === "InProgress") {
    // Why a job waits: its turn on the credential, the institution's maintenance, or its holder's phone.
    const approval = job.awaitingHolder;
    const waiting = {
      ...(job.queuePosition !== undefined && { "jobs ahead": job.queuePosition }),
      ...(job.maintenanceUntil && { "maintenance until": job.maintenanceUntil }),
      ...(approval && { "awaiting holder": `approve in the ${approval.provider} app by ${approval.until} (${timeLeft(approval.until)} left)` }),
    };
    return { ...base, phase: job.phase, progress: `${job.completedTaskCount}/${job.totalTaskCount}`, ...waiting };
  }
  if (job.kind === "Succeeded") return { ...base, records: job.recordCount };
  return { ...base, category: job.error.category, code: job.error.code, retryable: job.error.retryable, message: job.error.message };
}

export function printJob(ctx: Context, job: DataJob): void {
  ctx.out.write(ctx.json ? json(job) : fields(jobFields(job)));
}

export function printJobList(ctx: Context, jobs: DataJobListItem[]): void {
  if (ctx.json) return void ctx.out.write(json(jobs));
  const rows = jobs.map((j) => ({ id: j.id, kind: j.kind, provider: j.providerCode, schema: j.schema, error: j.kind === "Failed" ? `${j.error.category} ${j.error.code}` : "" }));
  ctx.out.write(table(rows, ["id", "kind", "provider", "schema", "error"]));
}

/** Waits for a job, drawing its progress on stderr (so stdout stays the result). */
export async function waitShowingProgress(ctx: Context, client: CollectClient, job: string | DataJob): Promise<TerminalDataJob> {
  const progress = progressReporter(ctx.err);
  try {
    return await client.waitForJob(job, {
      signal: ctx.signal,
      onProgress: (j) => {
        progress.awaiting(j.awaitingHolder);
        progress.update(j.completedTaskCount, j.totalTaskCount, j.phase);
      },
    });
  } finally {
    progress.done();
  }
}

export const exitFor = (job: TerminalDataJob): ExitCode => (job.kind === "Succeeded" ? EXIT.OK : EXIT.FAILED);
