import { ApiError } from "../errors/api-error";
import { deleteBatch } from "../db/delete-batch";

/** Sign-in attempts allowed per window: few per e-mail (guessing one account), more per address (an office behind one address). */
export const LOGIN_WINDOW_MS = 15 * 60_000;
export const ATTEMPTS_PER_EMAIL = 5;
export const ATTEMPTS_PER_ADDRESS = 20;
/** Sign-ups per address per window: a company signs up once; a script testing which e-mails are taken signs up many times. */
export const SIGN_UPS_PER_ADDRESS = 10;

/** One atomic upsert of a subject's count in the current window, so concurrent guesses cannot slip past a limit. */
async function counted(d1: D1Database, subject: string, now: number): Promise<{ attempts: number; windowStartedAt: number }> {
  return (await d1
    .prepare(
      `INSERT INTO login_attempts (subject, window_started_at, attempts) VALUES (?1, ?2, 1)
       ON CONFLICT(subject) DO UPDATE SET
         attempts = CASE WHEN window_started_at <= ?3 THEN 1 ELSE attempts + 1 END,
         window_started_at = CASE WHEN window_started_at <= ?3 THEN ?2 ELSE window_started_at END
       RETURNING attempts, window_started_at AS windowStartedAt`,
    )
    .bind(subject, now, now - LOGIN_WINDOW_MS)
    .first<{ attempts: number; windowStartedAt: number }>())!;
}

function refuse(windowStartedAt: number, now: number, code: "TOO_MANY_LOGIN_ATTEMPTS" | "API_RATE_LIMITED" = "TOO_MANY_LOGIN_ATTEMPTS"): never {
  const retryAfter = Math.max(1, Math.ceil((windowStartedAt + LOGIN_WINDOW_MS - now) / 1000));
  throw new ApiError(code, { headers: { "Retry-After": String(retryAfter) } });
}

/**
 * Counts a sign-up against the client address before the e-mail is looked up: DUPLICATE_EMAIL tells whether an
 * address has an account, so harvesting the list of taken addresses costs a window per SIGN_UPS_PER_ADDRESS tries.
 * Over the limit: API_RATE_LIMITED with Retry-After.
 */
export async function countSignUpAttempt(d1: D1Database, address: string, now: number = Date.now()): Promise<void> {
  const byAddress = await counted(d1, `signup-ip:${address}`, now);
  if (byAddress.attempts > SIGN_UPS_PER_ADDRESS) refuse(byAddress.windowStartedAt, now, "API_RATE_LIMITED");
}

/**
 * Counts a sign-in attempt against the client address, then against the
 * e-mail, before the password is checked. Throws TOO_MANY_LOGIN_ATTEMPTS
 * (with Retry-After) once either is over its limit. An address over its
 * limit adds no row for the e-mail it tried: one address can make at most
 * ATTEMPTS_PER_ADDRESS e-mail rows a window, however many e-mails it invents.
 */
export async function countLoginAttempt(d1: D1Database, email: string, address: string, now: number = Date.now()): Promise<void> {
  const byAddress = await counted(d1, `ip:${address}`, now);
  if (byAddress.attempts > ATTEMPTS_PER_ADDRESS) refuse(byAddress.windowStartedAt, now);
  const byEmail = await counted(d1, `email:${email}`, now);
  if (byEmail.attempts > ATTEMPTS_PER_EMAIL) refuse(byEmail.windowStartedAt, now);
}

/** Rows whose window has closed count nothing: removed in batches of `limit` (the retention cron, worker/retention.ts). */
export async function purgeClosedLoginWindows(d1: D1Database, limit: number, now: number = Date.now()): Promise<number> {
  return deleteBatch(d1, "login_attempts", "window_started_at <= ?", [now - LOGIN_WINDOW_MS], limit);
}

/** A successful sign-in: the e-mail's failures are forgiven, and the address is not charged for it. */
export async function forgiveLoginAttempt(d1: D1Database, email: string, address: string): Promise<void> {
  await d1.batch([
    d1.prepare("DELETE FROM login_attempts WHERE subject = ?").bind(`email:${email}`),
    d1.prepare("UPDATE login_attempts SET attempts = max(attempts - 1, 0) WHERE subject = ?").bind(`ip:${address}`),
  ]);
}
