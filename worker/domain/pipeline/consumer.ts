import { pipelineDeps } from "./deps";
import { tracedDelivery } from "./traced-delivery";
import type { PipelineMessage } from "../jobs/messages";

/** The queue handler: a thin loop handing each message to the executor and acting on its outcome. */
export async function consumeBatch(batch: MessageBatch<PipelineMessage>, env: Env): Promise<void> {
  const deps = pipelineDeps(env);
  await Promise.all(
    batch.messages.map(async (message) => {
      const outcome = await tracedDelivery(deps, env, message.body);
      if (outcome.kind === "retry") message.retry({ delaySeconds: outcome.delaySeconds });
      else message.ack();
    }),
  );
}
