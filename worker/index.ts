import { createApp } from "./app";
import { assertConfigured } from "./domain/deployment/configuration-problems";
import { meteringOn, takeUsage } from "./platform/metering";
import { consumeBatch } from "./domain/pipeline/consumer";
import { invocationBindings } from "./domain/pipeline/detached-delivery";
import { pipelineDeps } from "./domain/pipeline/deps";
import type { PipelineDeps } from "./domain/pipeline/ports";
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
import { resultUnits } from "./domain/jobs/results-rows";
import { resendStalledDeliveries } from "./domain/webhooks/emit";
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

type CronStep = (env: Env, pipeline: PipelineDeps) => Promise<unknown>;

/**
 * The minute's cron, in order: each step is its owning domain's, and a new one is a row here (docs/architecture.md).
 * Runs one after another, as each may act on what the one before it left.
 */
const CRON_STEPS: readonly CronStep[] = [
  (env, pipeline) => sweep(env.DB, pipeline),
  (env) => runMissedSchedules(env),
  (env) => expireSessions(env),
  (env) => resendStalledDeliveries(env),
  (env) => resendStalledRouteDeliveries(env),
  (env) => applyBookedChanges(env.DB),
  (env) => renewSubscriptions(env, portOneGateway(env)),
  (env) => voidStaleUpgrades(env.DB),
  (env) => purgeExpired(env.DB),
  (env) => watchRequestLogSize(env),
  (env) => purgeExpiredReports(env, PURGE_BATCH),
  (env) => purgeExpiredResults(env),
  (env) => backfillIdentities(env.DB, env.VAULT_MASTER_KEY),
  (env) => warnExpiringCertificates(env, Date.now()),
  // Open Banking consents whose token ends soon, refreshed through the scraper (a bounded batch a run).
  async (env, pipeline) => {
    const consents = await refreshDueConsents(env, pipeline, Date.now());
    if (Object.values(consents).some((n) => n > 0)) log("info", "open-banking-refresh", { ...consents });
  },
  async (env) => {
    const rotation = await rewrapStep(env, env.VAULT_MASTER_KEY);
    if (Object.values({ ...rotation.rewrapped, ...rotation.unreadable }).some((n) => n > 0)) log("info", "vault-rewrap", { ...rotation });
  },
];

/** Each queue's consumer, by the queue's name; the pipeline's tasks queue takes what no other names. */
const CONSUMERS: Readonly<Record<string, (batch: MessageBatch<unknown>, env: Env) => Promise<void>>> = {
  [WEBHOOK_QUEUE]: (batch, env) => consumeWebhookBatch(batch as MessageBatch<WebhookMessage>, env),
  [REQUEST_LOG_QUEUE]: (batch, env) => consumeRequestLogBatch(batch as MessageBatch<QueuedRequestLogMessage>, env.DB),
  [DELIVERY_QUEUE]: (batch, env) => consumeDeliveryBatch(batch as MessageBatch<RouteDeliveryMessage>, env, { findJobById, resultUnits }),
};
const consumePipeline = (batch: MessageBatch<unknown>, env: Env) => consumeBatch(batch as MessageBatch<PipelineMessage>, env);

export default {
  fetch(request, env, ctx) {
    if (meteringOn(env) && new URL(request.url).pathname === "/__meter") return Response.json(takeUsage(new URL(request.url).searchParams.has("reset")));
    return app.fetch(request, invocationBindings(env), ctx);
  },
  async queue(batch, env) {
    assertConfigured(env);
    // One handler serves every queue: the batch names the one it came from.
    await (CONSUMERS[batch.queue] ?? consumePipeline)(batch, invocationBindings(env));
  },
  async scheduled(_controller, env) {
    assertConfigured(env);
    const used = invocationBindings(env);
    const pipeline = pipelineDeps(used);
    for (const step of CRON_STEPS) await step(used, pipeline);
  },
} satisfies ExportedHandler<Env, PipelineMessage | WebhookMessage | QueuedRequestLogMessage>;
