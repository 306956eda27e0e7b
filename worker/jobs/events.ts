import { jobView } from "./views";
import { emitEvent, type EventsEnv } from "../webhooks/emit";
import type { JobRow } from "./store";

/** Announces a job that reached SUCCEEDED or FAILED to the workspace's webhook endpoints; every transition into a final status calls it once. */
export async function jobEnded(env: EventsEnv, row: JobRow): Promise<void> {
  if (row.status !== "SUCCEEDED" && row.status !== "FAILED") return;
  await emitEvent(env, { type: row.status === "SUCCEEDED" ? "data_job.succeeded" : "data_job.failed", workspaceId: row.workspaceId, billingWorkspaceId: row.billingWorkspaceId ?? undefined, object: jobView(row) });
}
