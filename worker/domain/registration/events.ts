import type { WebhookEventType } from "../../../contracts/webhooks";
import { shownSession } from "./views";
import { emitEvent, type EventsEnv } from "../webhooks/emit";
import type { SessionRow } from "./status";

export type SessionEventsEnv = EventsEnv;

const EVENT_OF: Partial<Record<SessionRow["status"], WebhookEventType>> = {
  CONSUMED: "registration_session.consumed",
  CANCELLED: "registration_session.cancelled",
  EXPIRED: "registration_session.expired",
  LOCKED: "registration_session.locked",
};

/** Announces a session's move to a final status, to the workspace's webhook endpoints; each transition calls it once, after committing. */
export async function sessionEnded(env: SessionEventsEnv, row: SessionRow): Promise<void> {
  const type = EVENT_OF[row.status];
  if (type) await emitEvent(env, { type, workspaceId: row.workspaceId, object: await shownSession(env.DB, row) });
}
