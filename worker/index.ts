import { createApp } from "./app";
import type { Bindings } from "./env";
import type { PipelineMessage } from "./pipeline/messages";

export { CredentialLock } from "./durable-objects/credential-lock";
export { RateLimiter } from "./durable-objects/rate-limiter";

const app = createApp();

export default {
  fetch: app.fetch,
  async queue(_batch: MessageBatch<PipelineMessage>, _env: Bindings): Promise<void> {},
  async scheduled(_controller: ScheduledController, _env: Bindings): Promise<void> {},
} satisfies ExportedHandler<Bindings, PipelineMessage>;
