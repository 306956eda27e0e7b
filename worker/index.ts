import { createApp } from "./app";
import { assertConfigured } from "./domain/deployment/configuration-problems";
import { meteringOn, takeUsage } from "./platform/metering";
import type { Bindings } from "./env";
import { consumeBatch } from "./domain/pipeline/consumer";
import { invocationBindings } from "./domain/pipeline/detached-delivery";
import { pipelineDeps } from "./domain/pipeline/deps";
import type { PipelineMessage } from "./domain/jobs/messages";
import { sweep } from "./domain/pipeline/sweep";
import { expireSessions } from "./domain/registration/expiry";
import { consumeWebhookBatch } from "./domain/webhooks/consumer";
import { consumeRequestLogBatch } from "./domain/request-logs/consumer";
import { type QueuedRequestLogMessage, REQUEST_LOG_QUEUE } from "./domain/request-logs/messages";
import { watchRequestLogSize } from "./domain/request-logs/capacity";
import { WEBHOOK_QUEUE, type WebhookMessage } from "./domain/webhooks/messages";
import { consumeDeliveryBatch, DELIVERY_QUEUE, resendStalledRouteDeliveries, type RouteDeliveryMessage } from "./domain/deliveries/consumer";
import { findJobById } from "./domain/jobs/store";
import { resultUnits } from "./domain/jobs/result-units";
import { resendStalledDeliveries } from "./domain/webhooks/sweep";
import { PURGE_BATCH, purgeExpired } from "./domain/retention/purge";
import { applyBookedChanges } from "./domain/billing/subscriptions";
import { renewSubscriptions } from "./domain/billing/renewal";
import { voidStaleUpgrades } from "./domain/billing/void";
import { portOneGateway } from "./domain/billing/portone";
import { purgeExpiredReports } from "./domain/reports/store";
import { purgeExpiredResults } from "./domain/retention/results";
import { rewrapStep } from "./domain/key-rotation/rewrap";
import { backfillIdentities } from "./domain/credentials/identity-backfill";
import { warnExpiringCertificates } from "./domain/credentials/expiry-warnings";
import { refreshDueConsents } from "./domain/pipeline/consent-refresh";
import { runMissedSchedules } from "./domain/schedule-runs/catch-up";
import { log } from "./platform/observability/telemetry";

export { AlertDesk } from "./domain/alerts/alert-desk";
export { CredentialLock } from "./domain/pipeline/credential-lock";
export { JobBoard } from "./domain/jobs/job-board";
export { ProviderPulse } from "./domain/catalog/provider-pulse";
export { RequestGate } from "./domain/api-keys/request-gate";
export { RunnerHub } from "./domain/scraper/runner-hub";
export { ScheduleAlarm } from "./domain/schedule-runs/schedule-alarm";
export { ScraperContainer } from "./domain/scraper/scraper-container";
export { DetachedDeliveries } from "./domain/pipeline/detached-delivery";

const app = createApp();

export default {
  fetch(request, env, ctx) {
    if (meteringOn(env) && new URL(request.url).pathname === "/__meter") return Response.json(takeUsage(new URL(request.url).searchParams.has("reset")));
    return app.fetch(request, invocationBindings(env), ctx);
  },
  async queue(batch, env) {
    assertConfigured(env);
    // One handler serves every queue: the batch names the one it came from.
    if (batch.queue === WEBHOOK_QUEUE) await consumeWebhookBatch(batch as MessageBatch<WebhookMessage>, invocationBindings(env));
    else if (batch.queue === REQUEST_LOG_QUEUE) await consumeRequestLogBatch(batch as MessageBatch<QueuedRequestLogMessage>, invocationBindings(env).DB);
    else if (batch.queue === DELIVERY_QUEUE) await consumeDeliveryBatch(batch as MessageBatch<RouteDeliveryMessage>, invocationBindings(env), { findJobById, resultUnits });
    else await consumeBatch(batch as MessageBatch<PipelineMessage>, invocationBindings(env));
  },
  async scheduled(_controller, env) {
    assertConfigured(env);
    const used = invocationBindings(env);
    const pipeline = pipelineDeps(used);
    await sweep(used.DB, pipeline);
    await runMissedSchedules(used);
    await expireSessions(used);
    await resendStalledDeliveries(used);
    await resendStalledRouteDeliveries(used);
    await applyBookedChanges(used.DB);
    await renewSubscriptions(used, portOneGateway(used));
    await voidStaleUpgrades(used.DB);
    await purgeExpired(used.DB);
    await watchRequestLogSize(used);
    await purgeExpiredReports(used, PURGE_BATCH);
    await purgeExpiredResults(used);
    await backfillIdentities(used.DB, used.VAULT_MASTER_KEY);
    await warnExpiringCertificates(used, Date.now());
    // Open Banking consents whose token ends within a week, refreshed through the scraper (a bounded batch a run).
    const consents = await refreshDueConsents(used, pipeline, Date.now());
    if (Object.values(consents).some((n) => n > 0)) log("info", "open-banking-refresh", { ...consents });
    const rotation = await rewrapStep(used, used.VAULT_MASTER_KEY);
    if (Object.values({ ...rotation.rewrapped, ...rotation.unreadable }).some((n) => n > 0)) log("info", "vault-rewrap", { ...rotation });
  },
} satisfies ExportedHandler<Bindings, PipelineMessage | WebhookMessage | QueuedRequestLogMessage>;
