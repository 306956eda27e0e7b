import type { D1Migration } from "cloudflare:test";
// The openssl-made certificate worker tests inject (declares its ProvidedContext entry).
import "../joint-certificate-fixture";

declare global {
  namespace Cloudflare {
    interface Env {
      TEST_MIGRATIONS: D1Migration[];
      /** Container instances' stand-in (test/support/scraper-instance-stand-in.js): the scraper process behind a Durable Object binding. */
      SCRAPER_STAND_IN: DurableObjectNamespace;
      /** The global setup's webhook receiver (test/support/webhook-receiver.ts). */
      TEST_WEBHOOK_RECEIVER_URL: string;
      /** The global setup's S3-compatible server (s3rver) with its bucket `partner-bucket`, keys S3RVER/S3RVER. */
      TEST_S3_URL: string;
      /** The global setup's SFTP server (test/support/sftp-server.ts): its port, its files over HTTP, its host key's fingerprint, its user's password. */
      TEST_SFTP_PORT: string;
      TEST_SFTP_FILES_URL: string;
      TEST_SFTP_HOST_KEY_SHA256: string;
      TEST_SFTP_PASSWORD: string;
    }
  }
}
