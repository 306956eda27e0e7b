import { createApp } from "./app";
import type { Bindings } from "./env";
import { consumeBatch } from "./pipeline/consumer";
import { pipelineDeps } from "./pipeline/deps";
import type { PipelineMessage } from "./jobs/messages";
import { sweep } from "./pipeline/sweep";

export { CredentialLock } from "./durable-objects/credential-lock";
export { JobBoard } from "./durable-objects/job-board";
export { RequestGate } from "./durable-objects/request-gate";

const app = createApp();

export default {
  fetch: app.fetch,
  queue: consumeBatch,
  async scheduled(_controller, env) {
    await sweep(env.DB, pipelineDeps(env));
  },
} satisfies ExportedHandler<Bindings, PipelineMessage>;
