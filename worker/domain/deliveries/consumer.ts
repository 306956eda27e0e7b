import { log } from "../../platform/observability/telemetry";
import { type DeliveredJob, type DeliverEnv, type DeliveryJobs, deliverJob, deliveryParts } from "./deliver";
import { claimStalledDeliveries, findDelivery, insertDelivery, recordTry } from "./store";
import { numberOr } from "../../platform/configuration";
import { ApiError } from "../../platform/errors/api-error";

export const DELIVERY_QUEUE = "collect-deliveries";

/** What travels on the DELIVERIES queue: one route delivery to try. The state lives in D1 (route_deliveries). */
export interface RouteDeliveryMessage {
  deliveryId: string;
}

/** The DELIVERIES queue as its senders name it: the generated bindings type it a queue of anything (worker-configuration.d.ts). */
type DeliveryQueue = { DELIVERIES: Queue<RouteDeliveryMessage> };

/** Tries a delivery gets before it ends FAILED in the route's log: spread over hours by the backoff below. */
export const DELIVERY_TRIES = 8;

const backoffSeconds = (env: Pick<Env, "DELIVERY_RETRY_BASE_SECONDS">, tries: number) => Math.min(numberOr(env.DELIVERY_RETRY_BASE_SECONDS, 30) * 2 ** (tries - 1), 3600);

/** Longer than the longest backoff (an hour): a pending delivery untouched this long lost its queue message. */
const STALLED_MS = 2 * 3_600_000;

/** Sends again the deliveries whose queue message was lost; the cron runs it. Returns how many. */
export async function resendStalledRouteDeliveries(env: Pick<Env, "DB"> & DeliveryQueue, now: number = Date.now()): Promise<number> {
  const ids = await claimStalledDeliveries(env.DB, STALLED_MS, now);
  for (const deliveryId of ids) await env.DELIVERIES.send({ deliveryId });
  return ids.length;
}

/** A succeeded job with a route gets its delivery, once (a second end of the job finds the first), queued. */
export async function queueRouteDelivery(env: Pick<Env, "DB"> & DeliveryQueue, job: { id: string; status: string; deliveryRouteId: string | null }): Promise<void> {
  if (job.status !== "SUCCEEDED" || !job.deliveryRouteId) return;
  const delivery = await insertDelivery(env.DB, job.deliveryRouteId, job.id);
  if (delivery) await env.DELIVERIES.send({ deliveryId: delivery.id });
}

/**
 * The DELIVERIES queue's handler: each message one try of one delivery, recorded in the route's log; a failed try
 * comes back as the same message later (backoff from DELIVERY_RETRY_BASE_SECONDS, 30 s by default, doubling to an
 * hour) until DELIVERY_TRIES. A delivery whose route was deleted, whose job is gone since, or whose results were
 * deleted before it ran ends FAILED at once, the last saying when and why.
 * `jobs`: what it reads of the job flow (worker/index.ts passes it).
 */
export async function consumeDeliveryBatch<Job extends DeliveredJob>(
  batch: MessageBatch<RouteDeliveryMessage>,
  env: DeliverEnv & Pick<Env, "DELIVERY_RETRY_BASE_SECONDS">,
  jobs: DeliveryJobs<Job>,
): Promise<void> {
  for (const message of batch.messages) {
    const delivery = await findDelivery(env.DB, message.body.deliveryId);
    if (!delivery || delivery.status !== "PENDING") {
      message.ack();
      continue;
    }
    const parts = await deliveryParts(env.DB, delivery.routeId, delivery.jobId, jobs);
    if (!parts) {
      await recordTry(env.DB, delivery.id, { status: "FAILED", error: "the route was deleted, or the job is gone", files: null });
      message.ack();
      continue;
    }
    try {
      const files = await deliverJob(env, parts.route, parts.job, jobs);
      await recordTry(env.DB, delivery.id, { status: "SENT", error: null, files });
      message.ack();
    } catch (err) {
      const tries = delivery.attempts + 1;
      // Results deleted (expired, or on request: docs/retention.md) never come back; another try would only fail again.
      const last = tries >= DELIVERY_TRIES || (err instanceof ApiError && err.code === "DATA_JOB_RESULTS_DELETED");
      log("warn", "route-delivery-failed", { deliveryId: delivery.id, routeId: delivery.routeId, jobId: delivery.jobId, tries, error: String(err) });
      await recordTry(env.DB, delivery.id, { status: last ? "FAILED" : "PENDING", error: String((err as Error)?.message ?? err), files: null });
      if (last) message.ack();
      else message.retry({ delaySeconds: backoffSeconds(env, tries) });
    }
  }
}
