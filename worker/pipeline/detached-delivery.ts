import { exports, WorkerEntrypoint } from "cloudflare:workers";
import type { Bindings } from "../env";
import { meteredEnv, meteringOn } from "../metering";
import type { PipelineMessage } from "../jobs/messages";
import { pipelineDeps } from "./deps";
import { executeMessage } from "./executor";

/**
 * Local development only (CONCURRENT_DELIVERIES): wrangler dev hands the
 * consumer one batch at a time and waits for all of it, while production runs
 * up to `max_concurrency` consumer invocations at once. Handing each message
 * to this entrypoint, which runs it after answering, lets the local broker
 * move on at once, so deliveries overlap as they do in production (two jobs
 * on one credential meet, units of many jobs run side by side). The message
 * is acked on hand-off; a retry is sent again with its delay. The executor,
 * not the queue, counts a job's attempts, and the sweep restarts a chain a
 * dying dev process drops.
 */
export class DetachedDelivery extends WorkerEntrypoint<Bindings> {
  deliver(message: PipelineMessage): void {
    this.ctx.waitUntil(run(meteringOn(this.env) ? meteredEnv(this.env, false) : this.env, message));
  }
}

async function run(env: Bindings, message: PipelineMessage): Promise<void> {
  const outcome = await executeMessage(pipelineDeps(env), message);
  if (outcome.kind === "retry") await env.TASKS.send(message, { delaySeconds: outcome.delaySeconds });
}

/** The loopback binding to the worker's own DetachedDelivery export. */
export function detachedDelivery(): Service<DetachedDelivery> {
  return (exports as unknown as { DetachedDelivery: Service<DetachedDelivery> }).DetachedDelivery;
}
