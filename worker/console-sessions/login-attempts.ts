import { ApiError } from "../errors/api-error";

/** Sign-in attempts allowed per window: few per e-mail (guessing one account), more per address (an office behind one address). */
export const LOGIN_WINDOW_MS = 15 * 60_000;
export const ATTEMPTS_PER_EMAIL = 5;
export const ATTEMPTS_PER_ADDRESS = 20;

const subjects = (email: string, address: string) => [
  { subject: `email:${email}`, limit: ATTEMPTS_PER_EMAIL },
  { subject: `ip:${address}`, limit: ATTEMPTS_PER_ADDRESS },
];

/**
 * Counts a sign-in attempt against the e-mail and the client address before
 * the password is checked, each in one atomic upsert, so concurrent guesses
 * cannot slip past the limit between a check and an increment. Throws
 * TOO_MANY_LOGIN_ATTEMPTS (with Retry-After) once either is over its limit.
 */
export async function countLoginAttempt(d1: D1Database, email: string, address: string, now: number = Date.now()): Promise<void> {
  const windowStart = now - LOGIN_WINDOW_MS;
  const counted = await d1.batch(
    subjects(email, address).map(({ subject }) =>
      d1
        .prepare(
          `INSERT INTO login_attempts (subject, window_started_at, attempts) VALUES (?1, ?2, 1)
           ON CONFLICT(subject) DO UPDATE SET
             attempts = CASE WHEN window_started_at <= ?3 THEN 1 ELSE attempts + 1 END,
             window_started_at = CASE WHEN window_started_at <= ?3 THEN ?2 ELSE window_started_at END
           RETURNING attempts, window_started_at AS windowStartedAt`,
        )
        .bind(subject, now, windowStart),
    ),
  );
  const limits = subjects(email, address);
  const over = counted
    .map((result, i) => ({ row: (result.results as { attempts: number; windowStartedAt: number }[])[0]!, limit: limits[i]!.limit }))
    .filter(({ row, limit }) => row.attempts > limit);
  if (over.length === 0) return;
  const resetAt = Math.max(...over.map(({ row }) => row.windowStartedAt + LOGIN_WINDOW_MS));
  const retryAfter = Math.max(1, Math.ceil((resetAt - now) / 1000));
  throw new ApiError("TOO_MANY_LOGIN_ATTEMPTS", { headers: { "Retry-After": String(retryAfter) } });
}

/** A successful sign-in: the e-mail's failures are forgiven, and the address is not charged for it. */
export async function forgiveLoginAttempt(d1: D1Database, email: string, address: string): Promise<void> {
  await d1.batch([
    d1.prepare("DELETE FROM login_attempts WHERE subject = ?").bind(`email:${email}`),
    d1.prepare("UPDATE login_attempts SET attempts = max(attempts - 1, 0) WHERE subject = ?").bind(`ip:${address}`),
  ]);
}
