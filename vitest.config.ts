import { randomBytes } from "node:crypto";
import path from "node:path";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";
import { newRegistrationKeyring } from "./scripts/registration-keys";
import { freePort } from "./scripts/free-port";
import { SlowFirst } from "./test/support/slow-first";
import { hostKeyFingerprint, newHostKey } from "./test/support/sftp-server";
import { SANDBOX_PORTONE_SECRET } from "./sandbox/portone/gateway";
import { REPLICA_CLIENT } from "./sandbox/openbanking/ground-truth";
import { REPLICA_SERVICE_KEY } from "./sandbox/nts-business-status/ground-truth";
import { openBankingStandIns } from "./sandbox/openbanking/stand-ins";

/** Worker tests: real D1 (drizzle-kit migrations applied), R2, Queues and Durable Objects inside workerd. */
export default defineConfig(async () => {
  const migrations = await readD1Migrations(path.join(import.meta.dirname, "drizzle"));
  // Free ports and the scraper's secret, handed to the global setup through the environment (it runs in this process), so parallel runs never collide.
  process.env.TEST_SANDBOX_PORT ??= String(await freePort());
  process.env.TEST_SCRAPER_PORT ??= String(await freePort());
  process.env.TEST_SCRAPER_SECRET ??= randomBytes(32).toString("base64url");
  // The worker's Open Banking callback, which the global setup registers at the sandbox's replica of KFTC as well.
  process.env.TEST_OPENBANKING_CALLBACK_URL ??= "https://api.test/connect/open-banking/callback";
  process.env.TEST_WEBHOOK_PORT ??= String(await freePort());
  process.env.TEST_S3_PORT ??= String(await freePort());
  process.env.TEST_SFTP_PORT ??= String(await freePort());
  process.env.TEST_SFTP_HTTP_PORT ??= String(await freePort());
  // The SFTP server's host key and password, made here so the global setup (this process) and the tests agree on them.
  process.env.TEST_SFTP_HOST_KEY ??= newHostKey();
  process.env.TEST_SFTP_PASSWORD ??= randomBytes(18).toString("base64url");
  const scraperSecret = process.env.TEST_SCRAPER_SECRET;
  const registrationKeys = await newRegistrationKeyring("test-key");
  const OPERATOR_ALERT_SECRET = `whsec_${randomBytes(24).toString("base64")}`;
  const downloadLinkKeys = `k2:${randomBytes(32).toString("base64url")},k1:${randomBytes(32).toString("base64url")}`;
  const runtime = () =>
    cloudflareTest({
      wrangler: { configPath: "./wrangler.toml" },
      miniflare: {
        compatibilityFlags: ["service_binding_extra_handlers"],
        queueConsumers: { "collect-tasks": { maxBatchTimeout: 0.05 }, "collect-webhooks": { maxBatchTimeout: 0.05 }, "collect-deliveries": { maxBatchTimeout: 0.05 }, "collect-request-logs": { maxBatchTimeout: 1 } },
        // The request log waits a second to fill a batch (production: 5 s, wrangler.toml): every API call of every test
        // is logged, and batches of one cost the suite a D1 write each; its tests wait for the rows.
        // Container instances reached through a Durable Object binding, as in production, with the scraper process behind them.
        durableObjects: { SCRAPER_STAND_IN: { className: "ScraperInstanceStandIn", scriptName: "scraper-stand-in" } },
        workers: [
          {
            name: "scraper-stand-in",
            modules: true,
            scriptPath: "./test/support/scraper-instance-stand-in.js",
            compatibilityDate: "2026-04-01",
            bindings: { SCRAPER_PROCESS_URL: `http://127.0.0.1:${process.env.TEST_SCRAPER_PORT}` },
            durableObjects: { SCRAPER_STAND_IN: "ScraperInstanceStandIn" },
          },
        ],
        bindings: {
          TEST_MIGRATIONS: migrations,
          CURSOR_SECRET: "test-cursor-secret",
          VAULT_MASTER_KEY: "v1:AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8",
          REGISTRATION_E2E_KEYS: registrationKeys,
          // Two keys, as during a rotation: the first signs, both verify.
          DOWNLOAD_LINK_KEYS: downloadLinkKeys,
          SCRAPER_URL: `http://127.0.0.1:${process.env.TEST_SCRAPER_PORT}`,
          SCRAPER_SHARED_SECRET: scraperSecret,
          SANDBOX_BASE_URL: `http://127.0.0.1:${process.env.TEST_SANDBOX_PORT}`,
          // Open Banking: the replica's 이용기관 (its secret is the scraper's only), and its authorization page at the sandbox.
          OPENBANKING_CLIENT_ID: REPLICA_CLIENT.clientId,
          OPENBANKING_CALLBACK_URL: String(process.env.TEST_OPENBANKING_CALLBACK_URL),
          // The NTS replica's key (the scraper's too): the console checks businesses' registration status.
          NTS_SERVICE_KEY: REPLICA_SERVICE_KEY,
          INSTITUTION_BASE_URLS: JSON.stringify({ openbanking: openBankingStandIns(`http://127.0.0.1:${process.env.TEST_SANDBOX_PORT}`) }),
          // The payment gateway: the sandbox's PortOne replica and the secret it accepts (sandbox/portone/gateway.ts).
          PORTONE_API_URL: `http://127.0.0.1:${process.env.TEST_SANDBOX_PORT}/portone`,
          PORTONE_API_SECRET: SANDBOX_PORTONE_SECRET,
          PORTONE_WEBHOOK_SECRET: `whsec_${randomBytes(24).toString("base64")}`,
          BILLING_TEST_CLOCK: "1",
          // The global setup's webhook receiver on this machine, allowed as the local stack allows it, and retries a second
          // or two apart so a test sees several.
          TEST_WEBHOOK_RECEIVER_URL: `http://127.0.0.1:${process.env.TEST_WEBHOOK_PORT}`,
          WEBHOOK_ALLOW_LOCAL_URLS: "1",
          // Operators' alert channels: the same receiver, under a name of their own, and the mail outbox.
          OPERATOR_ALERT_WEBHOOK_URL: `http://127.0.0.1:${process.env.TEST_WEBHOOK_PORT}/hooks/operator-alerts`,
          OPERATOR_ALERT_WEBHOOK_SECRET: OPERATOR_ALERT_SECRET,
          OPERATOR_ALERT_EMAIL: "alerts@collect-edge.co.kr",
          MAIL_OUTBOX_ONLY: "1",
          // Registrations here do not log in beside the tests' own jobs; credential-check.test.ts turns checks on for its own.
          CREDENTIAL_CHECKS: "off",
          WEBHOOK_RETRY_BASE_SECONDS: "1",
          DELIVERY_RETRY_BASE_SECONDS: "1",
          TEST_S3_URL: `http://127.0.0.1:${process.env.TEST_S3_PORT}`,
          TEST_SFTP_PORT: process.env.TEST_SFTP_PORT!,
          TEST_SFTP_FILES_URL: `http://127.0.0.1:${process.env.TEST_SFTP_HTTP_PORT}/files`,
          TEST_SFTP_HOST_KEY_SHA256: hostKeyFingerprint(process.env.TEST_SFTP_HOST_KEY!),
          TEST_SFTP_PASSWORD: process.env.TEST_SFTP_PASSWORD!,
          WEBHOOK_RETRY_MAX_SECONDS: "2",
          // Clients that poll as told (the typed client's waitForJob) see a job end within a fraction of the spec's 5 s.
          SUGGESTED_POLL_INTERVAL_MS: "200",
        },
      },
    });
  // Both projects keep a runtime's storage and modules from file to file (`isolate: false`): migrations are applied
  // once per runtime instead of once per file, and every test makes its own workspaces, keys, credentials and
  // addresses. The tests that act on every row in storage (named `*.storage-wide.test.ts`) run in a project of their
  // own, through one file that imports them all (test/workers/storage-wide.test.ts): one runtime holds their rows
  // apart from the others', and one runtime, not one a file, since each costs about ten seconds to start.
  const storageWide = "test/workers/**/*.storage-wide.test.ts";
  const storageWideRunner = "test/workers/storage-wide.test.ts";
  const project = (name: string, include: string[], exclude: string[]) => ({
    plugins: [runtime()],
    test: {
      name,
      include,
      exclude,
      isolate: false,
      setupFiles: ["./test/support/workers/main-module-cache.ts", "./test/support/workers/apply-migrations.ts"],
      globalSetup: ["./test/support/workers-global-setup.ts"],
      testTimeout: 240_000,
      hookTimeout: 240_000,
    },
  });
  return {
    test: {
      maxWorkers: 3,
      // The files that say `// start-order: N` start first, in that order: the order that measured fastest under the
      // full suite (c33: 192 s). Longest-first by the lane's own timings, which starts three more Chromium-heavy files
      // at once, was slower (c34, c35: 211-212 s).
      sequence: { sequencer: SlowFirst },
      projects: [project("workers", ["test/workers/**/*.test.ts"], [storageWide, storageWideRunner]), project("workers-own-storage", [storageWideRunner], [])],
    },
  };
});
