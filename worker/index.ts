import { createApp } from "./app";
import { assertConfigured } from "./configuration";
import { meteredEnv, meteringOn, takeUsage } from "./metering";
import type { Bindings } from "./env";
import { consumeBatch } from "./pipeline/consumer";
import { pipelineDeps } from "./pipeline/deps";
import type { PipelineMessage } from "./jobs/messages";
import { sweep } from "./pipeline/sweep";
import { expireSessions } from "./registration/expiry";
import { consumeWebhookBatch } from "./webhooks/consumer";
import { WEBHOOK_QUEUE, type WebhookMessage } from "./webhooks/messages";
import { resendStalledDeliveries } from "./webhooks/sweep";

export { CredentialLock } from "./durable-objects/credential-lock";
export { JobBoard } from "./durable-objects/job-board";
export { RequestGate } from "./durable-objects/request-gate";
export { ScraperContainer } from "./durable-objects/scraper-container";
export { DetachedDeliveries } from "./pipeline/detached-delivery";

const app = createApp();

/** The bindings an invocation works with: metered for `npm run bench:cost` only (metering.ts). */
const bindings = (env: Bindings) => (meteringOn(env) ? meteredEnv(env) : env);

export default {
  fetch(request, env, ctx) {
    if (meteringOn(env) && new URL(request.url).pathname === "/__meter") return Response.json(takeUsage(new URL(request.url).searchParams.has("reset")));
    return app.fetch(request, bindings(env), ctx);
  },
  async queue(batch, env) {
    assertConfigured(env);
    // One handler serves both queues: the batch names the one it came from.
    if (batch.queue === WEBHOOK_QUEUE) await consumeWebhookBatch(batch as MessageBatch<WebhookMessage>, bindings(env));
    else await consumeBatch(batch as MessageBatch<PipelineMessage>, bindings(env));
  },
  async scheduled(_controller, env) {
    assertConfigured(env);
    const used = bindings(env);
    await sweep(used.DB, pipelineDeps(used));
    await expireSessions(used);
    await resendStalledDeliveries(used);
  },
} satisfies ExportedHandler<Bindings, PipelineMessage | WebhookMessage>;
