import { createApp } from "./app";
import { assertConfigured } from "./configuration";
import { meteringOn, takeUsage } from "./metering";
import type { Bindings } from "./env";
import { consumeBatch } from "./pipeline/consumer";
import { invocationBindings } from "./pipeline/detached-delivery";
import { pipelineDeps } from "./pipeline/deps";
import type { PipelineMessage } from "./jobs/messages";
import { sweep } from "./pipeline/sweep";
import { expireSessions } from "./registration/expiry";
import { consumeWebhookBatch } from "./webhooks/consumer";
import { WEBHOOK_QUEUE, type WebhookMessage } from "./webhooks/messages";
import { consumeDeliveryBatch, DELIVERY_QUEUE, resendStalledRouteDeliveries, type RouteDeliveryMessage } from "./deliveries/consumer";
import { resendStalledDeliveries } from "./webhooks/sweep";
import { PURGE_BATCH, purgeExpired } from "./retention";
import { applyBookedChanges } from "./billing/subscriptions";
import { renewSubscriptions } from "./billing/renewal";
import { voidStaleUpgrades } from "./billing/void";
import { portOneGateway } from "./billing/portone";
import { purgeExpiredReports } from "./reports/store";
import { rewrapStep } from "./vault/rotation";
import { backfillIdentities } from "./credentials/identity-backfill";
import { warnExpiringCertificates } from "./credentials/expiry-warnings";
import { runMissedSchedules } from "./schedules/catch-up";
import { log } from "./observability/telemetry";

export { AlertDesk } from "./durable-objects/alert-desk";
export { CredentialLock } from "./durable-objects/credential-lock";
export { JobBoard } from "./durable-objects/job-board";
export { ProviderPulse } from "./durable-objects/provider-pulse";
export { RequestGate } from "./durable-objects/request-gate";
export { RunnerHub } from "./durable-objects/runner-hub";
export { ScheduleAlarm } from "./durable-objects/schedule-alarm";
export { ScraperContainer } from "./durable-objects/scraper-container";
export { DetachedDeliveries } from "./pipeline/detached-delivery";

const app = createApp();

export default {
  fetch(request, env, ctx) {
    if (meteringOn(env) && new URL(request.url).pathname === "/__meter") return Response.json(takeUsage(new URL(request.url).searchParams.has("reset")));
    return app.fetch(request, invocationBindings(env), ctx);
  },
  async queue(batch, env) {
    assertConfigured(env);
    // One handler serves both queues: the batch names the one it came from.
    if (batch.queue === WEBHOOK_QUEUE) await consumeWebhookBatch(batch as MessageBatch<WebhookMessage>, invocationBindings(env));
    else if (batch.queue === DELIVERY_QUEUE) await consumeDeliveryBatch(batch as MessageBatch<RouteDeliveryMessage>, invocationBindings(env));
    else await consumeBatch(batch as MessageBatch<PipelineMessage>, invocationBindings(env));
  },
  async scheduled(_controller, env) {
    assertConfigured(env);
    const used = invocationBindings(env);
    await sweep(used.DB, pipelineDeps(used));
    await runMissedSchedules(used);
    await expireSessions(used);
    await resendStalledDeliveries(used);
    await resendStalledRouteDeliveries(used);
    await applyBookedChanges(used.DB);
    await renewSubscriptions(used, portOneGateway(used));
    await voidStaleUpgrades(used.DB);
    await purgeExpired(used.DB);
    await purgeExpiredReports(used, PURGE_BATCH);
    await backfillIdentities(used.DB, used.VAULT_MASTER_KEY);
    await warnExpiringCertificates(used, Date.now());
    const rotation = await rewrapStep(used.DB, used.VAULT_MASTER_KEY);
    if (Object.values({ ...rotation.rewrapped, ...rotation.unreadable }).some((n) => n > 0)) log("info", "vault-rewrap", { ...rotation });
  },
} satisfies ExportedHandler<Bindings, PipelineMessage | WebhookMessage>;
