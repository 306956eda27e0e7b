/**
 * The settings wrangler.toml does not name, which `wrangler types` (worker-configuration.d.ts) cannot see: secrets
 * (`wrangler secret put`, .dev.vars) and optional settings that a deployment, the local stack or a test sets. They join
 * both generated `Env`s: the one the worker names, and `Cloudflare.Env`, which `cloudflare:workers` and the tests' env have.
 */
interface WorkerSettings {
  /** The first retry's delay of a failed route delivery, doubling after; 30 s when unset (tests shorten it). */
  DELIVERY_RETRY_BASE_SECONDS?: string;
  /** Operators' channels for alerts (docs/operations.md): a chat tool's incoming webhook, its Standard Webhooks secret (whsec_…), an e-mail address. Each optional. */
  OPERATOR_ALERT_WEBHOOK_URL?: string;
  OPERATOR_ALERT_WEBHOOK_SECRET?: string;
  OPERATOR_ALERT_EMAIL?: string;
  /** An OTLP/HTTP collector's base URL: spans go to its /v1/traces (docs/operations.md, "Logs and traces"); unset, none are sent. */
  OTEL_EXPORTER_OTLP_ENDPOINT?: string;
  /** Local development and tests: base URLs of the scraper processes, comma-separated, one per instance. */
  SCRAPER_URL?: string;
  /** How many runner slots sessions spread over; set, runners are the scraper (before the container and SCRAPER_URL). */
  SCRAPER_RUNNERS?: string;
  /** Secret the worker shows the scraper container on every call; the container holds the same one (docs/scraper-runtime.md). */
  SCRAPER_SHARED_SECRET: string;
  /** Secret: PortOne's API secret (worker/domain/billing/portone.ts, beside PORTONE_API_URL); unset, nothing can be paid. */
  PORTONE_API_SECRET?: string;
  /** Optional: the PortOne store (상점 아이디) when the secret serves several. */
  PORTONE_STORE_ID?: string;
  /** "1" on the local stack and in tests only: the billing page's test clock ends a paid period at once (worker/domain/billing/test-clock.ts). */
  BILLING_TEST_CLOCK?: string;
  /** Secret: what PortOne signs its webhooks with (its console, 결제알림(웹훅) 관리); unset, every delivery is refused. */
  PORTONE_WEBHOOK_SECRET?: string;
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
}

interface Env extends WorkerSettings {}

declare namespace Cloudflare {
  interface Env extends WorkerSettings {}
}
