import { DurableObject } from "cloudflare:workers";
import type { PipelineMessage } from "../jobs/messages";
import { meteredEnv, meteringOn } from "../../platform/metering";
import { pipelineDeps } from "./deps";
import { tracedDelivery } from "./traced-delivery";
import { flagOn } from "../../platform/configuration";

/**
 * Local development only (CONCURRENT_DELIVERIES): production runs up to
 * `max_concurrency` consumer invocations at once, while the local queue of
 * `wrangler dev` hands its consumer one batch at a time and keeps its
 * messages, delayed ones too, in memory. Locally, every pipeline message is
 * therefore sent to one of these Durable Objects instead, which stores it
 * and runs it in its alarm, after the message's delay: deliveries overlap as
 * in production (two jobs on one credential meet, units of many jobs run
 * side by side), and a message waiting out its delay survives a restart of
 * the runtime. The alarm, not background work after an answer: a worker's
 * waitUntil is cut off 30 s after its answer and an idle object's a little
 * later, both shorter than a delivery may run. The executor, not a queue,
 * counts a job's attempts, and the sweep restarts a chain a dying dev
 * process drops (docs/pipeline.md).
 */
export class DetachedDeliveries extends DurableObject<Env> {
  async deliver(message: PipelineMessage, delaySeconds: number): Promise<void> {
    await this.ctx.storage.put("message", message);
    await this.ctx.storage.setAlarm(Date.now() + delaySeconds * 1000);
  }

  override async alarm(): Promise<void> {
    const message = await this.ctx.storage.get<PipelineMessage>("message");
    // Gone first: the object holds nothing once its one delivery ran, whatever the outcome.
    await this.ctx.storage.deleteAll();
    if (!message) return;
    // Each delivery stands for the consumer invocation that would run it in production.
    const env = invocationBindings(this.env);
    const outcome = await tracedDelivery(pipelineDeps(env), env, message);
    if (outcome.kind === "retry") await env.TASKS.send(message, { delaySeconds: outcome.delaySeconds });
  }
}

const NO_BACKLOG = { metadata: { metrics: { backlogCount: 0, backlogBytes: 0 } } };

/** A TASKS producer that sends each message to a delivery object of its own. */
function detachedProducer(deliveries: DurableObjectNamespace<DetachedDeliveries>): Queue<PipelineMessage> {
  // An object per message: two deliveries of one job may meet, as they may in production.
  const deliver = (message: PipelineMessage, delaySeconds = 0) => deliveries.getByName(crypto.randomUUID()).deliver(message, delaySeconds);
  return {
    send: async (message, options) => {
      await deliver(message, options?.delaySeconds);
      return NO_BACKLOG;
    },
    sendBatch: async (messages, options) => {
      await Promise.all([...messages].map((m) => deliver(m.body, m.delaySeconds ?? options?.delaySeconds)));
      return NO_BACKLOG;
    },
    metrics: async () => NO_BACKLOG.metadata.metrics,
  };
}

/**
 * The bindings each isolate's `env` became, made once: workerd hands every request of an isolate the same `env`, and
 * a new object per request would have every cache keyed by the bindings (require-configuration.ts) miss.
 */
const detached = new WeakMap<Env, Env>();

/** The bindings as every pipeline message is sent with: under CONCURRENT_DELIVERIES, TASKS delivers through these objects. */
export function withDetachedDeliveries(env: Env): Env {
  if (!flagOn(env.CONCURRENT_DELIVERIES)) return env;
  if (!env.DETACHED_DELIVERIES) throw new Error("CONCURRENT_DELIVERIES needs the DETACHED_DELIVERIES binding (top level of wrangler.toml)");
  let local = detached.get(env);
  if (!local) detached.set(env, (local = { ...env, TASKS: detachedProducer(env.DETACHED_DELIVERIES) }));
  return local;
}

/** The bindings an invocation works with: local deliveries substituted, and metered for `npm run bench:cost` only (metering.ts). */
export function invocationBindings(env: Env): Env {
  const local = withDetachedDeliveries(env);
  return meteringOn(local) ? meteredEnv(local) : local;
}
