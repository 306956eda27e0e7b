import type { ApiErrorCode } from "../../platform/errors/codes";

/**
 * When a flagged code (the spec's *) becomes an operator's alert: `threshold` occurrences for one provider within
 * `windowMs`. It resolves once the occurrences of the last window fall below the threshold again.
 */
export interface AlertRule {
  threshold: number;
  windowMs: number;
}

/** The provider of an occurrence that has none: an API request's error. */
export const NO_PROVIDER = "-";

const MINUTE = 60_000;
const DEFAULT_RULE: AlertRule = { threshold: 5, windowMs: 10 * MINUTE };

/** Where the default does not fit (docs/operations.md, "Alerts"). */
const RULES: Partial<Record<ApiErrorCode, AlertRule>> = {
  // Each means our code or an institution's page changed under us: one is news.
  SCRAPING_PARSER_NOT_FOUND: { threshold: 1, windowMs: 30 * MINUTE },
  SCRAPING_RESPONSE_MALFORMED: { threshold: 1, windowMs: 30 * MINUTE },
  CERT_CRYPTO_UNAVAILABLE: { threshold: 1, windowMs: 30 * MINUTE },
  ADMIN_ACTION_NOT_MARKED: { threshold: 1, windowMs: 30 * MINUTE },
  CONNECTION_CREDENTIAL_UNREADABLE: { threshold: 1, windowMs: 30 * MINUTE },
  INTERNAL_ERROR: { threshold: 3, windowMs: 5 * MINUTE },
  // Raised by the operators' sign-in alone, each time an operator account locks after its failures: one is news.
  TOO_MANY_LOGIN_ATTEMPTS: { threshold: 1, windowMs: 30 * MINUTE },
  // Raised by card registration alone (domain/billing/payment-methods.ts), for each card the card company refused to
  // register: a few a day are typos, a run of them is someone testing stolen card numbers.
  CARD_DECLINED: { threshold: 10, windowMs: 60 * MINUTE },
  // People mistype certificate passwords and pick the wrong file every day: only a surge says something broke.
  CERT_WRONG_PASSWORD: { threshold: 30, windowMs: 30 * MINUTE },
  CERT_INVALID: { threshold: 20, windowMs: 30 * MINUTE },
};

export const alertRule = (code: ApiErrorCode): AlertRule => RULES[code] ?? DEFAULT_RULE;
