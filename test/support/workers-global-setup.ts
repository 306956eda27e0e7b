import { spawn } from "node:child_process";
import path from "node:path";
import { waitFor } from "../../scripts/local-stack";
import { startWebhookReceiver } from "./webhook-receiver";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import S3rver from "s3rver";
import { startSftpServer } from "./sftp-server";
import { REPLICA_CLIENT } from "../../sandbox/openbanking/ground-truth";
import { openBankingStandIns } from "../../sandbox/openbanking/stand-ins";
import { REPLICA_SERVICE_KEY } from "../../sandbox/nts-business-status/ground-truth";
import { ntsBusinessStatusStandIns } from "../../sandbox/nts-business-status/stand-ins";
import { hometaxStandIns } from "../../sandbox/hometax/stand-ins";
import type { TestProject } from "vitest/node";
import type { OpensslJointCertificate } from "./joint-certificate-fixture";
import { makeOpensslJointCertificate } from "./openssl-joint-certificate";

const ROOT = path.resolve(import.meta.dirname, "../..");

/**
 * Both worker projects (vitest.config.ts) name this setup; they share one set of services, stopped after the last,
 * and one certificate.
 */
const shared = globalThis as { workersServices?: { users: number; started: Promise<() => Promise<void>>; certificate: Promise<OpensslJointCertificate> } };

/**
 * The worker tests reach a real sandbox bank and a real scraper (with
 * Chromium) over HTTP, exactly as the deployed worker reaches its container.
 * Workers tests cannot run openssl inside workerd: the certificate openssl makes (openssl-joint-certificate.ts) is made
 * here, while the services start, and handed over.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  shared.workersServices ??= { users: 0, started: startServices(), certificate: makeOpensslJointCertificate("1208800767") };
  const services = shared.workersServices;
  services.users++;
  const [stop, certificate] = await Promise.all([services.started, services.certificate]);
  project.provide("opensslJointCertificate", certificate);
  return async () => {
    if (--services.users === 0) await stop();
  };
}

async function startServices(): Promise<() => Promise<void>> {
  const { TEST_SANDBOX_PORT, TEST_SCRAPER_PORT, TEST_SCRAPER_SECRET, TEST_WEBHOOK_PORT, TEST_S3_PORT, TEST_SFTP_PORT, TEST_SFTP_HTTP_PORT, TEST_SFTP_HOST_KEY, TEST_SFTP_PASSWORD } = process.env;
  const start = (script: string, env: Record<string, string>) =>
    spawn(path.join(ROOT, "node_modules/.bin/node"), ["--import", "tsx", script], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ["ignore", "ignore", "inherit"] });
  // The worker's callback (vitest.config.ts) is the one registered for the replica's 이용기관.
  const sandbox = start("sandbox/server.ts", { SANDBOX_PORT: String(TEST_SANDBOX_PORT), SANDBOX_OPENBANKING_CALLBACK_URLS: String(process.env.TEST_OPENBANKING_CALLBACK_URL) });
  const scraper = start("scraper-container/server.ts", {
    SCRAPER_PORT: String(TEST_SCRAPER_PORT),
    SCRAPER_SHARED_SECRET: String(TEST_SCRAPER_SECRET),
    SANDBOX_BASE_URL: `http://127.0.0.1:${TEST_SANDBOX_PORT}`,
    // Test files run side by side and many end with a session the scraper closes only when idle: room for all of them, so no test waits for a slot.
    MAX_SESSIONS: "64",
    // The scraper's spans go to the receiver (as a collector would take them) for requests that carry a sampled trace:
    // only test/workers/platform/observability/telemetry.test.ts sends one.
    OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${TEST_WEBHOOK_PORT}/hooks/otlp-scraper`,
    // Route deliveries reach the test SFTP server on this machine, as the local stack allows; production refuses loopback.
    SFTP_ALLOW_LOCAL_HOSTS: "1",
    // Open Banking reaches the sandbox's replica of KFTC, with the replica's 이용기관 keys (test/workers/domain/credentials/openbanking.test.ts).
    // The NTS business-status API likewise, with the replica's service key (test/workers/domain/business-status/business-status.test.ts),
    // and Hometax (test/workers/domain/catalog/hometax-replica.test.ts).
    INSTITUTION_BASE_URLS: JSON.stringify({
      hometax: hometaxStandIns(`http://127.0.0.1:${TEST_SANDBOX_PORT}`),
      openbanking: openBankingStandIns(`http://127.0.0.1:${TEST_SANDBOX_PORT}`),
      "nts.business-status": ntsBusinessStatusStandIns(`http://127.0.0.1:${TEST_SANDBOX_PORT}`),
    }),
    NTS_SERVICE_KEY: REPLICA_SERVICE_KEY,
    // The Workers tests run Hometax jobs against the replica by the dozen: no pace, said here (collectors/registry.ts).
    HOMETAX_PACE_MS: "0",
    OPENBANKING_CLIENT_ID: REPLICA_CLIENT.clientId,
    OPENBANKING_CLIENT_SECRET: REPLICA_CLIENT.clientSecret,
    OPENBANKING_CLIENT_USE_CODE: REPLICA_CLIENT.clientUseCode,
  });
  // Webhook deliveries from the worker under test reach a real receiver over HTTP (test/workers/domain/webhooks/webhooks.storage-wide.test.ts).
  const receiver = await startWebhookReceiver(Number(TEST_WEBHOOK_PORT));
  // Route deliveries (test/workers/api/delivery-routes/delivery-routes.test.ts) land on real servers: an S3-compatible one and an SFTP one.
  const s3 = new S3rver({ port: Number(TEST_S3_PORT), address: "127.0.0.1", silent: true, directory: mkdtempSync(path.join(tmpdir(), "s3rver-")), configureBuckets: [{ name: "partner-bucket", configs: [] }] });
  await s3.run();
  const sftp = await startSftpServer({ port: Number(TEST_SFTP_PORT), httpPort: Number(TEST_SFTP_HTTP_PORT), hostKey: TEST_SFTP_HOST_KEY!, username: "partner", password: TEST_SFTP_PASSWORD! });
  await Promise.all([
    waitFor(`http://127.0.0.1:${TEST_SANDBOX_PORT}/healthz`, sandbox),
    waitFor(`http://127.0.0.1:${TEST_SCRAPER_PORT}/healthz`, scraper),
  ]);
  return async () => {
    for (const child of [sandbox, scraper]) child.kill("SIGTERM");
    await Promise.all([receiver.close(), s3.close(), sftp.close()]);
  };
}
