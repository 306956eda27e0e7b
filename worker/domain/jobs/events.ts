import { jobView, pollIntervalMs } from "./views";
import { emitEvent, type EventsEnv } from "../webhooks/emit";
import type { Subscriber } from "../webhooks/endpoints";
import { type OutcomesEnv, scheduleRunEnded } from "../schedules/outcomes";
import { isFinished, type JobRow } from "./store";
import { noteFlagged } from "../alerts/raise";
import { notePulse } from "../catalog/status";
import { queueRouteDelivery } from "../deliveries/consumer";

/**
 * Announces a job that reached SUCCEEDED or FAILED to the workspace's webhook endpoints, counts a schedule's run
 * toward its pause, the job toward its provider's status, and a flagged failure code toward its operators' alert;
 * every transition into a final status calls it once. `subscribers`: the endpoints its event goes to, when the caller
 * read them with its change (emitEvent).
 */
export async function jobEnded(
  env: EventsEnv & OutcomesEnv & Pick<Env, "SUGGESTED_POLL_INTERVAL_MS" | "ALERT_DESKS" | "PROVIDER_PULSES" | "DELIVERIES">,
  row: JobRow,
  subscribers?: readonly Subscriber[],
): Promise<void> {
  if (!isFinished(row)) return;
  await scheduleRunEnded(env, row);
  await notePulse(env, row);
  await queueRouteDelivery(env, row);
  if (row.error) await noteFlagged(env, row.error.code, row.providerCode, `job ${row.id}`);
  await emitEvent(env, { type: row.status === "SUCCEEDED" ? "data_job.succeeded" : "data_job.failed", workspaceId: row.workspaceId, billingWorkspaceId: row.billingWorkspaceId ?? undefined, object: jobView(row, pollIntervalMs(env)) }, undefined, subscribers);
}
