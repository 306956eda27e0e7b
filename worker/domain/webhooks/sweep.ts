import { markResent, stalledDeliveries } from "./deliveries";
import type { EventsEnv } from "./emit";
import { deliveryMessage } from "./messages";

/** Sends again the deliveries whose queue message was lost; the cron runs it. Returns how many. */
export async function resendStalledDeliveries(env: EventsEnv, now = Date.now()): Promise<number> {
  let resent = 0;
  for (const row of await stalledDeliveries(env.DB, now)) {
    if (!(await markResent(env.DB, row.id, row.attemptCount, now))) continue;
    await env.WEBHOOKS.send(deliveryMessage(row));
    resent++;
  }
  return resent;
}
