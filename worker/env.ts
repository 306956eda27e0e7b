import type { TimingVariables } from "hono/timing";
import type { KeyRights } from "./domain/api-keys/rights";
import type { AlertDesk } from "./domain/alerts/alert-desk";
import type { CredentialLock } from "./domain/pipeline/credential-lock";
import type { JobBoard } from "./domain/jobs/job-board";
import type { ProviderPulse } from "./domain/catalog/provider-pulse";
import type { RequestGate } from "./domain/api-keys/request-gate";
import type { RunnerHub } from "./domain/scraper/runner-hub";
import type { ScheduleAlarm } from "./domain/schedule-runs/schedule-alarm";
import type { ScraperContainer } from "./domain/scraper/scraper-container";
import type { DetachedDeliveries } from "./domain/pipeline/detached-delivery";
import type { PipelineMessage } from "./domain/jobs/messages";
import type { WebhookMessage } from "./domain/webhooks/messages";
import type { RouteDeliveryMessage } from "./domain/deliveries/consumer";
import type { RequestLogMessage } from "./domain/request-logs/messages";

/** Worker bindings, declared once for the app, the queue consumer and the cron. */
export interface Bindings {
  DB: D1Database;
  RESULTS: R2Bucket;
  TASKS: Queue<PipelineMessage>;
  /** Route deliveries of succeeded jobs' results (worker/domain/deliveries/). */
  DELIVERIES: Queue<RouteDeliveryMessage>;
  /** The first retry's delay of a failed route delivery, doubling after; 30 s when unset (tests shorten it). */
  DELIVERY_RETRY_BASE_SECONDS?: string;
  /** Webhook delivery attempts (worker/domain/webhooks/). */
  WEBHOOKS: Queue<WebhookMessage>;
  /** Answered /api/v1 requests on their way to the request log, written in batches (worker/domain/request-logs/). */
  REQUEST_LOGS: Queue<RequestLogMessage>;
  REQUEST_GATES: DurableObjectNamespace<RequestGate>;
  CREDENTIAL_LOCKS: DurableObjectNamespace<CredentialLock>;
  JOB_BOARD: DurableObjectNamespace<JobBoard>;
  SCHEDULE_ALARMS: DurableObjectNamespace<ScheduleAlarm>;
  /** One per flagged code and provider (worker/domain/alerts/alert-desk.ts). */
  ALERT_DESKS: DurableObjectNamespace<AlertDesk>;
  /** One per provider: how its jobs ended lately, for its status (worker/domain/catalog/provider-pulse.ts). */
  PROVIDER_PULSES: DurableObjectNamespace<ProviderPulse>;
  /** Operators' channels for alerts (docs/operations.md): a chat tool's incoming webhook, its Standard Webhooks secret (whsec_…), an e-mail address. Each optional. */
  OPERATOR_ALERT_WEBHOOK_URL?: string;
  OPERATOR_ALERT_WEBHOOK_SECRET?: string;
  OPERATOR_ALERT_EMAIL?: string;
  /** An OTLP/HTTP collector's base URL: spans go to its /v1/traces (docs/operations.md, "Logs and traces"); unset, none are sent. */
  OTEL_EXPORTER_OTLP_ENDPOINT?: string;
  /** Production: the scraper's Cloudflare Container instances (docs/deploying.md); when bound, SCRAPER_URL is not used. */
  SCRAPER?: DurableObjectNamespace<ScraperContainer>;
  /** How many container instances sessions spread over; unset means the `max_instances` default in domain/scraper/instances.ts. */
  SCRAPER_INSTANCES?: string;
  /** Local development and tests: base URLs of the scraper processes, comma-separated, one per instance. */
  SCRAPER_URL?: string;
  /** Runner slots, one per scraper running where the institutions are and connected out to the worker (docs/deploying.md). */
  RUNNER_HUB?: DurableObjectNamespace<RunnerHub>;
  /** How many runner slots sessions spread over; set, runners are the scraper (before the container and SCRAPER_URL). */
  SCRAPER_RUNNERS?: string;
  /** Secret the worker shows the scraper container on every call; the container holds the same one (docs/scraper-runtime.md). */
  SCRAPER_SHARED_SECRET: string;
  /** The payment gateway (worker/domain/billing/portone.ts): PortOne's API base (https://api.portone.io; locally the sandbox's replica) and its API secret. Unset, nothing can be paid. */
  PORTONE_API_URL?: string;
  /** Secret. */
  PORTONE_API_SECRET?: string;
  /** Optional: the PortOne store (상점 아이디) when the secret serves several. */
  PORTONE_STORE_ID?: string;
  /** "1" on the local stack and in tests only: the billing page's test clock ends a paid period at once (worker/domain/billing/test-clock.ts). */
  BILLING_TEST_CLOCK?: string;
  /** Secret: what PortOne signs its webhooks with (its console, 결제알림(웹훅) 관리); unset, every delivery is refused. */
  PORTONE_WEBHOOK_SECRET?: string;
  /** Base URL of the sandbox institutions' web sites, for adapters the worker runs on Browser Rendering. */
  SANDBOX_BASE_URL: string;
  /**
   * Open Banking (docs/deploying.md, "Open Banking"): the 이용기관's client id, which the authorization page a person
   * is sent to names. Its secret and 이용기관 code are used by the scraper only (it exchanges and refreshes the tokens).
   * Unset, the hosted page cannot start a consent.
   */
  OPENBANKING_CLIENT_ID?: string;
  /**
   * Secrets, passed on to the scraper container only (domain/scraper/scraper-container.ts; a runner takes them from its
   * own environment): the worker never calls KFTC with them.
   */
  OPENBANKING_CLIENT_SECRET?: string;
  OPENBANKING_CLIENT_USE_CODE?: string;
  /**
   * The Callback URL registered for the app on KFTC's developer site, byte for byte; unset,
   * `<this service's origin>/connect/open-banking/callback` as the request that starts the consent reached it.
   */
  OPENBANKING_CALLBACK_URL?: string;
  /**
   * When the cron refreshes Open Banking consents (collectors/openbanking/options.ts `refreshPolicy`): `after-expiry`
   * (unset: once the access token has ended, as the production client in the sources does) or `ahead` (a week early),
   * once the live check reports that KFTC takes an early refresh.
   */
  OPENBANKING_REFRESH_POLICY?: string;
  /**
   * Stand-ins for real institutions' hosts, as the scraper reads them (collectors/kit/protocol/stand-ins.ts): the worker
   * maps the authorization page it sends a browser to (Open Banking's) through them. Local stack and tests only.
   */
  INSTITUTION_BASE_URLS?: string;
  /** Secret, optional: an HTTPS proxy in Korea that real institutions' traffic leaves through (docs/deploying.md, "Egress"). */
  EGRESS_PROXY_URL?: string;
  /** Providers whose traffic takes the egress proxy, comma-separated; unset, every provider of the protocol kind. */
  EGRESS_PROVIDERS?: string;
  /**
   * Secret, optional: the data.go.kr service key of the NTS business-status API (docs/institutions/nts-business-status.md
   * §6). The worker only hands it to its scraper container; unset, nts.business-status jobs fail with INTERNAL_ERROR.
   */
  NTS_SERVICE_KEY?: string;
  /** HMAC key that makes list cursors tamper-proof. */
  CURSOR_SECRET: string;
  /** Base64 AES-256 key that wraps credential data keys (the vault's key-encryption key). */
  VAULT_MASTER_KEY: string;
  /** Keyring that signs CSV download links: `<id>:<secret>[,<id>:<secret>...]`, the first signs, all verify (domain/download-links/token.ts). */
  DOWNLOAD_LINK_KEYS: string;
  /** Automatic resumption tuning (seconds / count); unset means the production defaults in domain/pipeline/deps.ts. */
  RETRY_BASE_SECONDS?: string;
  RETRY_MAX_SECONDS?: string;
  RETRY_MAX_ATTEMPTS?: string;
  LOCK_LEASE_SECONDS?: string;
  INLINE_BUDGET_SECONDS?: string;
  COMMIT_EVERY_SECONDS?: string;
  /** Sweep thresholds (seconds); unset means the constants in domain/pipeline/sweep.ts. Fault tests shorten them to see recovery quickly. */
  PLAN_RESEND_SECONDS?: string;
  PENDING_ORPHAN_SECONDS?: string;
  STALL_SECONDS?: string;
  /**
   * The fewest minutes between two runs of a schedule, lowering the rule's 15 only (domain/schedules/cron.ts
   * `minimumIntervalMinutes`): the local stack's fault suite runs a schedule every minute. Never set in production.
   */
  SCHEDULE_MIN_INTERVAL_MINUTES?: string;
  /**
   * Local development: "1" sends every pipeline message to a Durable Object of its own, which runs it after its delay
   * (domain/pipeline/detached-delivery.ts), so deliveries overlap as production's concurrent consumer invocations do; wrangler dev's
   * queue would deliver one batch at a time. Unset in production.
   */
  CONCURRENT_DELIVERIES?: string;
  /** Where concurrent deliveries run (local development only; not bound in production). */
  DETACHED_DELIVERIES?: DurableObjectNamespace<DetachedDeliveries>;
  /** `npm run bench:cost` only: "1" counts billed platform calls and serves them at /__meter (metering.ts). Never set in a deployment. */
  COST_METER?: string;
  /**
   * The suggestedPollIntervalMs a job shows (milliseconds); unset means the spec's 5000. Tests and the local stack's
   * test profile shorten it, so a client that polls as told sees a job end without waiting seconds for it.
   */
  SUGGESTED_POLL_INTERVAL_MS?: string;
  /** Rate limit overrides for local load benchmarks; unset means the spec's 100/minute and 5000/hour. */
  RATE_LIMIT_PER_MINUTE?: string;
  RATE_LIMIT_PER_HOUR?: string;
  /** bench/api.ts only: milliseconds added each way to a call of an API key's gate, standing in for a gate far away. */
  BENCH_GATE_DISTANCE_MS?: string;
  /** bench/api.ts only; no deployment sets it: "1" takes the request log's middleware off the API, to measure what the log costs a request. */
  BENCH_REQUEST_LOG_OFF?: string;
  /** Local development and tests only (scripts/local-stack.ts, vitest.config.ts; never production): "1" lets webhook endpoints be http(s)://localhost, 127.0.0.1 or [::1]. */
  WEBHOOK_ALLOW_LOCAL_URLS?: string;
  /**
   * The service's own origin (`https://api.example.com`): links it hands out and mails (a holder's manage link) are
   * built on it, never on the Host a request came with. Unset, a request's own origin: production sets it
   * (wrangler.toml), the local stack to its own address (scripts/local-stack.ts).
   */
  PUBLIC_ORIGIN?: string;
  /** Production: the send_email binding that mails users (worker/domain/mail/outbox.ts) and the address it sends from. */
  MAIL?: SendEmail;
  MAIL_FROM?: string;
  /**
   * Local development and tests only (scripts/local-stack.ts, vitest.config.ts; never production): "1" keeps mail in the
   * outbox and prints it to the log instead of sending it; without it a deployment needs MAIL and MAIL_FROM.
   */
  MAIL_OUTBOX_ONLY?: string;
  /**
   * "off": registering a credential does not check it with a login (docs/credentials.md); POST /credentials/{id}/check
   * still does. For a deployment whose institutions alert their customers on every login, and for the Workers tests,
   * whose many registrations would each log in beside the test's own jobs. "hosted-only": the hosted page still checks
   * an ID login before it stores it (the person sees a refusal in place), and nothing is checked in the background
   * (the end-to-end stacks). Unset: both.
   */
  CREDENTIAL_CHECKS?: string;
  /** Webhook retry tuning (seconds); unset means the production schedule in domain/webhooks/deps.ts. */
  WEBHOOK_RETRY_BASE_SECONDS?: string;
  WEBHOOK_RETRY_MAX_SECONDS?: string;
  /** JSON array of private ECDH P-256 JWKs with `kid` for end-to-end encrypted registration; the last is current. */
  REGISTRATION_E2E_KEYS: string;
  /** Browser Rendering binding, used by providers whose runtime is "browser-rendering". */
  BROWSER?: import("@cloudflare/puppeteer").BrowserWorker;
}

export interface Principal {
  apiKeyId: string;
  /** The workspace the request acts in: the key's own, or for a partner the selected business's connection workspace. */
  workspaceId: string;
  /** The key's own workspace, whichever business a partner selects: the one whose request log has the request. */
  keyWorkspaceId: string;
  isPartner: boolean;
  /** The partner's connection the request acts through, once a business is selected (X-SVC-Business, or a body's connectionId). */
  connectionId?: string;
  /** The calling key's own rights: key management, and its expiry (which keys it issues may not outlive). */
  rights: KeyRights;
}

/** What every request carries, whatever surface serves it: its id (platform/http/request-id.ts). */
export interface BaseVariables extends TimingVariables {
  requestId: string;
}

/**
 * The request context every surface extends with its own request data (api/context.ts, console/context.ts,
 * admin/context.ts); what the platform and web/ share takes this, and so any surface's context.
 */
export interface AppEnv {
  Bindings: Bindings;
  Variables: BaseVariables;
}

/** What pages have besides: the response's script nonce (web/page-headers.ts). */
export interface PageVariables extends BaseVariables {
  cspNonce: string;
}

export interface PageEnv {
  Bindings: Bindings;
  Variables: PageVariables;
}
