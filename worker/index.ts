import { createApp } from "./app";
import { assertConfigured } from "./configuration";
import type { Bindings } from "./env";
import { consumeBatch } from "./pipeline/consumer";
import { pipelineDeps } from "./pipeline/deps";
import type { PipelineMessage } from "./jobs/messages";
import { sweep } from "./pipeline/sweep";

export { CredentialLock } from "./durable-objects/credential-lock";
export { JobBoard } from "./durable-objects/job-board";
export { RequestGate } from "./durable-objects/request-gate";
export { ScraperContainer } from "./durable-objects/scraper-container";
export { DetachedDelivery } from "./pipeline/detached-delivery";

const app = createApp();

export default {
  fetch: app.fetch,
  async queue(batch, env) {
    assertConfigured(env);
    await consumeBatch(batch, env);
  },
  async scheduled(_controller, env) {
    assertConfigured(env);
    await sweep(env.DB, pipelineDeps(env));
  },
} satisfies ExportedHandler<Bindings, PipelineMessage>;
