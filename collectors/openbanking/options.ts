import type { OpenBankingEnvironment } from "./hosts";

/**
 * The protocol questions no public source settles (docs/institutions/openbanking.md, "Unverified"), each a named
 * option with the safer default; a live check against the testbed reports which hold.
 */
export interface OpenBankingOptions {
  /** Which KFTC host: the production API or the testbed. Testbed keys do not work on production (O11). */
  environment: OpenBankingEnvironment;
  /**
   * Longest period one `transaction_list` query asks for, in days. No source states a maximum; a longer unit is
   * split into windows of this many days, each paged to its end.
   */
  maxPeriodDays: number;
  /**
   * Whether `A0018` (거래내역 없음) means "no rows in this period" rather than a failure. The sources do not say
   * whether a bank answers an empty period with `A0000` and an empty list or with `A0018`; both are read as empty.
   */
  a0018IsEmpty: boolean;
  /**
   * `rsp_code`s that mean the access token is no longer accepted. Only `O0002` (거부) was observed live; `O0003`
   * (만료) is the code list's name for expiry, never captured. On these the session refreshes once when it can.
   */
  tokenRejectedCodes: readonly string[];
  /** Time between two calls of one session, ms. No source publishes limits; `O0008`/`O0009` quotas exist. */
  minIntervalMs: number;
  /** When a quota code (`O0008`/`O0009`) is met, how long the job waits before a retry, in seconds. */
  quotaRetryAfterSeconds: number;
  /** Pages one window may take before the answer is distrusted (25 rows a page). */
  maxPagesPerWindow: number;
  /** Consent lifetime reported to the worker with new tokens, in days: one year in the one production client (O4). */
  consentDays: number;
  /**
   * When a consent's tokens are refreshed. `after-expiry`: once the access token has ended (by our clock, or KFTC
   * answering `O0003`), as the one production client does (O4 refreshes only after day 90). `ahead`: up to a week
   * before (the worker's cron) and `expirySkewSeconds` before at login. Whether KFTC takes a refresh before the access
   * token's end is unknown (§8); a refused early refresh keeps the tokens either way. The live check reports it.
   */
  refreshPolicy: (typeof REFRESH_POLICIES)[number];
  /** Seconds before `expiresAt` at which a token counts as expired already (clock skew, a long job), under `ahead` only. */
  expirySkewSeconds: number;
}

export const DEFAULT_OPTIONS: OpenBankingOptions = {
  environment: "production",
  maxPeriodDays: 31,
  a0018IsEmpty: true,
  tokenRejectedCodes: ["O0002", "O0003"],
  minIntervalMs: 250,
  quotaRetryAfterSeconds: 3600,
  maxPagesPerWindow: 400,
  consentDays: 365,
  refreshPolicy: "after-expiry",
  expirySkewSeconds: 300,
};

/** The refresh policies a deployment may choose for its cron (OPENBANKING_REFRESH_POLICY). */
export const REFRESH_POLICIES = ["after-expiry", "ahead"] as const;
