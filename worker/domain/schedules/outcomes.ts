import type { JobError } from "../../../contracts/job-failures";
import { emitEvent, type EventsEnv } from "../webhooks/emit";
import { armSchedule, type AlarmsEnv } from "./alarm";
import { countRunOutcome, SCHEDULE_FAILURE_LIMIT, type ScheduleRow, setScheduleStatus } from "./store";
import { scheduleView } from "./view";

export type OutcomesEnv = EventsEnv & AlarmsEnv;

/**
 * Counts a failed run of `schedule` and, at SCHEDULE_FAILURE_LIMIT in a row, pauses it, saying why (the last
 * failure's message) on the schedule and in a `schedule.paused` event: repeating a run that cannot succeed only
 * spends the workspace's jobs and the institution's patience with its login.
 */
export async function pauseForFailures(env: OutcomesEnv, schedule: Pick<ScheduleRow, "id">, lastMessage: string, now: number): Promise<void> {
  const failures = await countRunOutcome(env.DB, schedule.id, true, now);
  if (failures < SCHEDULE_FAILURE_LIMIT) return;
  const reason = `연속 ${failures}회 실패해 일시 중지했습니다. 마지막 오류: ${lastMessage}`;
  const paused = await setScheduleStatus(env.DB, schedule.id, { status: "PAUSED", pausedReason: reason }, now);
  if (!paused) return;
  await armSchedule(env, paused.id, null);
  await emitEvent(env, { type: "schedule.paused", workspaceId: paused.workspaceId, object: scheduleView(paused) }, now);
}

/** A schedule's run ended: a success ends a run of failures, a failure no retry can mend counts toward a pause. */
export async function scheduleRunEnded(env: OutcomesEnv, job: { scheduleId: string | null; status: string; error: JobError | null }, now = Date.now()): Promise<void> {
  if (!job.scheduleId) return;
  if (job.status === "SUCCEEDED") await countRunOutcome(env.DB, job.scheduleId, false, now);
  else if (job.status === "FAILED" && !job.error?.retryable) await pauseForFailures(env, { id: job.scheduleId }, job.error?.message ?? "", now);
}
