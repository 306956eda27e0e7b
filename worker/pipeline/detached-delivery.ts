import { DurableObject } from "cloudflare:workers";
import type { Bindings } from "../env";
import type { PipelineMessage } from "../jobs/messages";
import { meteredEnv, meteringOn } from "../metering";
import { pipelineDeps } from "./deps";
import { executeMessage } from "./executor";

/**
 * Local development only (CONCURRENT_DELIVERIES): wrangler dev hands the
 * consumer one batch at a time and waits for all of it, while production runs
 * up to `max_concurrency` consumer invocations at once. Handing each message
 * to one of these Durable Objects, which stores it and runs it in its alarm,
 * lets the local broker move on at once, so deliveries overlap as they do in
 * production (two jobs on one credential meet, units of many jobs run side by
 * side). The alarm, not background work after an answer: a worker's
 * waitUntil is cut off 30 s after its answer and an idle object's a little
 * later, both shorter than a delivery may run. The message is acked on
 * hand-off; a retry is sent again with its delay. The executor, not the
 * queue, counts a job's attempts, and the sweep restarts a chain a dying dev
 * process drops.
 */
export class DetachedDeliveries extends DurableObject<Bindings> {
  async deliver(message: PipelineMessage): Promise<void> {
    await this.ctx.storage.put("message", message);
    await this.ctx.storage.setAlarm(Date.now());
  }

  override async alarm(): Promise<void> {
    const message = await this.ctx.storage.get<PipelineMessage>("message");
    // Gone first: the object holds nothing once its one delivery ran, whatever the outcome.
    await this.ctx.storage.deleteAll();
    if (message) await run(meteringOn(this.env) ? meteredEnv(this.env, false) : this.env, message);
  }
}

async function run(env: Bindings, message: PipelineMessage): Promise<void> {
  const outcome = await executeMessage(pipelineDeps(env), message);
  if (outcome.kind === "retry") await env.TASKS.send(message, { delaySeconds: outcome.delaySeconds });
}

/** Hands a message on to run by itself; the caller acks it. */
export async function deliverDetached(env: Bindings, message: PipelineMessage): Promise<void> {
  if (!env.DETACHED_DELIVERIES) throw new Error("CONCURRENT_DELIVERIES needs the DETACHED_DELIVERIES binding (top level of wrangler.toml)");
  // An object per delivery: two deliveries of one job may meet, as they may in production.
  await env.DETACHED_DELIVERIES.getByName(crypto.randomUUID()).deliver(message);
}
