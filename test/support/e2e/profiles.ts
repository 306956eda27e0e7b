import type { StackOptions } from "../../../scripts/local-stack";

/**
 * The local stacks the end-to-end files run against, started once per run by the global setup
 * (test/support/e2e/global-setup.ts) when a file first asks for one. Files share a stack unless they break it on
 * purpose: a file that kills the scraper or the worker gets a stack of its own, so no other file's job dies.
 * Every file claims a workspace of its own (its key, console user and sandbox credentials) from the stack.
 */
export interface Profile extends Pick<StackOptions, "pageTimeoutMs" | "sweepEveryMs" | "scraperMaxSessions" | "vars" | "runners" | "openBankingTokenSeconds"> {
  /** Workspaces seeded for files to claim, one each. */
  workspaces: number;
}

/**
 * Fast automatic resumption so transient failures settle within a test's time, a rate limit above what close
 * polling needs (the limit itself is tested in test/workers), and a short suggested poll interval for clients
 * that poll as told.
 */
const TEST_VARS = {
  RETRY_BASE_SECONDS: "1",
  RETRY_MAX_SECONDS: "2",
  RETRY_MAX_ATTEMPTS: "3",
  RATE_LIMIT_PER_MINUTE: "100000",
  RATE_LIMIT_PER_HOUR: "1000000",
  SUGGESTED_POLL_INTERVAL_MS: "250",
  // Webhook retries a second or two apart, so a test sees several.
  WEBHOOK_RETRY_BASE_SECONDS: "1",
  WEBHOOK_RETRY_MAX_SECONDS: "2",
  // Registrations here are not checked with a login in the background: each check logged in beside the tests' own
  // jobs, which then waited behind it, and cost the suite a minute (runs c30-c33); that check runs against the real
  // scraper and sandbox in test/workers/domain/credentials/credential-check.test.ts. The hosted page still checks an ID login before it
  // stores it, as a person meets it (test/e2e/registration.test.ts).
  CREDENTIAL_CHECKS: "hosted-only",
  // Each unit commits on its own: the sandbox answers at once, so a job's units would otherwise all wait for one
  // commit, and these files watch a job's progress mid-run (and kill the scraper or the worker there). Commits of
  // several units are tested in the Workers runtime (test/workers/domain/pipeline/pipeline-executor.test.ts).
  COMMIT_EVERY_SECONDS: "0",
};

export const PROFILES = {
  // Three files run at once, each with a browser session or two open: room for all of them. Pages time out after
  // 15 s, so the sandbox's TIMEOUT case (bank-errors) ends within a test's time while a loaded machine's pages still
  // settle (at 6 s, a refused login's page outlasted the bound on every attempt under the full suite: TIMEOUT, c7). Its scraper is a runner that connects
  // out to the worker, as on a host in Korea (scraper-container/runner.ts): every job of these files goes through it;
  // the restarts profile keeps the scraper reached at its own address.
  // The Open Banking replica's tokens live two days, inside the week a cron refreshing ahead (OPENBANKING_REFRESH_POLICY
  // "ahead") looks, so a consent's refresh is due at once (test/e2e/openbanking.test.ts).
  shared: { workspaces: 20, scraperMaxSessions: 16, pageTimeoutMs: 15_000, vars: { ...TEST_VARS, OPENBANKING_REFRESH_POLICY: "ahead" }, runners: true, openBankingTokenSeconds: 2 * 86_400 },
  // faults.test.ts kills the worker and the scraper: the sweep runs every second with thresholds of seconds, so
  // lost work comes back within a test's time; a short lease lets a delivery that died free the credential soon;
  // enough attempts to outlast a restart on a loaded machine (10 at 1-2 s apart ran out twice, c32 and c35, while
  // the scraper came back: ENGINE_CRASHED; 30, a minute, ran out once more in stop 39's c18: 120 give several minutes,
  // still well inside the test's wait).
  restarts: {
    workspaces: 1,
    sweepEveryMs: 1000,
    vars: { ...TEST_VARS, PLAN_RESEND_SECONDS: "3", STALL_SECONDS: "8", LOCK_LEASE_SECONDS: "6", RETRY_MAX_ATTEMPTS: "120", SCHEDULE_MIN_INTERVAL_MINUTES: "1" },
  },
} satisfies Record<string, Profile>;

export type ProfileName = keyof typeof PROFILES;
