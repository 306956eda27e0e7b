import { type PulseWindow, providerPulse } from "./provider-pulse";
import type { JobError } from "../../../contracts/job-failures";
import { log } from "../../platform/observability/telemetry";
import { countProviderDay } from "./provider-days";

/**
 * A provider's state as partners see it (GET /providers/{code} `status`, the public status page; docs/operations.md):
 * MAINTENANCE while a window of its calendar is open, else from the success rate of the last hour (of the last day
 * while the hour has fewer than MIN_JOBS): DOWN below 50 %, DEGRADED below 90 %, OPERATIONAL otherwise or while
 * neither window has MIN_JOBS jobs.
 */
export type ProviderState = "OPERATIONAL" | "DEGRADED" | "DOWN" | "MAINTENANCE";

/**
 * The fewest jobs a rate is judged on: below it one failure is a big share (1 of 8 is 87.5 %) and says more of one
 * login than of the institution, so a quiet institution does not turn amber on a single bad job.
 */
export const MIN_JOBS = 10;

const judged = (window: PulseWindow) => (window.jobs >= MIN_JOBS ? window.successRate : null);

export function providerState(pulse: { lastHour: PulseWindow; lastDay: PulseWindow }, inMaintenance: boolean): ProviderState {
  if (inMaintenance) return "MAINTENANCE";
  const rate = judged(pulse.lastHour) ?? judged(pulse.lastDay);
  if (rate === null) return "OPERATIONAL";
  return rate < 0.5 ? "DOWN" : rate < 0.9 ? "DEGRADED" : "OPERATIONAL";
}

/** Failures the user's side causes (a wrong password, a missing credential, bad input) say nothing of the institution. */
const INSTITUTION_CATEGORIES = new Set(["TRANSIENT", "OTHER"]);

/** What a status reads of an ended job (a JobRow of jobs/store.ts, which sits above catalog). */
type EndedJob = { id: string; providerCode: string; status: string; error: JobError | null; createdAt: number; finishedAt: number | null };

/**
 * Counts an ended job toward its provider's status and its day of the status page's history. Never throws: a status is
 * not worth failing a job's end over.
 */
export async function notePulse(env: Pick<Env, "PROVIDER_PULSES" | "DB">, row: EndedJob, now: number = Date.now()): Promise<void> {
  // Without a credential to log in with, the job never reached the institution: it is no job of the provider's.
  if (row.error?.category === "CREDENTIAL_MISSING") return;
  const ok = row.status === "SUCCEEDED" ? true : row.error && INSTITUTION_CATEGORIES.has(row.error.category) ? false : null;
  try {
    await Promise.all([providerPulse(env, row.providerCode).record({ ok, durationMs: (row.finishedAt ?? now) - row.createdAt, at: now }), countProviderDay(env.DB, row.providerCode, ok, now)]);
  } catch (err) {
    log("error", "provider-pulse-failed", { jobId: row.id, error: String(err) });
  }
}
