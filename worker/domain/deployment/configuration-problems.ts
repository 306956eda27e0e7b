import { MIN_SHARED_SECRET_LENGTH } from "../../../contracts/scraper-protocol";
import { linkKeyringProblem } from "../download-links/token";
import { scraperInstances } from "../scraper/binding";
import { flagOn } from "../../platform/configuration";

/** Secrets the service cannot run without: `wrangler secret put` in production, `.dev.vars` locally (scripts/local-stack.ts). */
export const REQUIRED_SECRETS = ["CURSOR_SECRET", "VAULT_MASTER_KEY", "REGISTRATION_E2E_KEYS", "SCRAPER_SHARED_SECRET", "DOWNLOAD_LINK_KEYS"] as const;

function isAbsoluteUrl(value: string | undefined): boolean {
  try {
    return Boolean(value && new URL(value));
  } catch {
    return false;
  }
}

/**
 * What keeps this deployment from running, by name (never a value): a
 * missing secret, a scraper secret too short for the scraper to accept, a
 * download link keyring that cannot sign, no scraper to reach, no
 * institutions' address, no Open Banking Callback URL (every deployment offers
 * the consent, with its own keys or a partner's; deriving the callback from a
 * request would let its Host header name it). Nothing has a default to fall
 * back on, so a deployment that lacks one refuses to work instead.
 */
export function configurationProblems(env: Partial<Env>): string[] {
  const problems: string[] = REQUIRED_SECRETS.filter((name) => !env[name]).map((name) => `secret ${name} is not set`);
  if (env.SCRAPER_SHARED_SECRET && env.SCRAPER_SHARED_SECRET.length < MIN_SHARED_SECRET_LENGTH) {
    problems.push(`secret SCRAPER_SHARED_SECRET is shorter than ${MIN_SHARED_SECRET_LENGTH} characters`);
  }
  const linkKeys = env.DOWNLOAD_LINK_KEYS && linkKeyringProblem(env.DOWNLOAD_LINK_KEYS);
  if (linkKeys) problems.push(`secret DOWNLOAD_LINK_KEYS ${linkKeys}`);
  if (!scraperInstances(env)) problems.push("no scraper: neither the SCRAPER container binding nor SCRAPER_URL");
  if (!isAbsoluteUrl(env.SANDBOX_BASE_URL)) problems.push("SANDBOX_BASE_URL is not an absolute URL");
  if (!isAbsoluteUrl(env.OPENBANKING_CALLBACK_URL)) problems.push("OPENBANKING_CALLBACK_URL is not an absolute URL");
  if (!flagOn(env.MAIL_OUTBOX_ONLY) && (!env.MAIL || !env.MAIL_FROM)) problems.push("no mail: the MAIL send_email binding and MAIL_FROM");
  return problems;
}

/** For the queue consumer and the cron: throwing leaves the batch to be retried once the deployment is complete. */
export function assertConfigured(env: Partial<Env>): void {
  const problems = configurationProblems(env);
  if (problems.length > 0) throw new Error(`deployment incomplete: ${problems.join("; ")}`);
}
