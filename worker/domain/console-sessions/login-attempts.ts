import { and, eq, gt, sql } from "drizzle-orm";
import { ApiError } from "../../platform/errors/api-error";
import { database } from "../../platform/database/client";
import { deleteBatch } from "../../platform/database/delete-batch";
import { loginAttempts } from "./tables";

/** Counting windows: a subject's count starts over once its window has closed. */
export const LOGIN_WINDOW_MS = 15 * 60_000;
/** Attempts per address per window, whatever e-mails it tries: an office behind one address fits; a guessing script does not. */
export const ATTEMPTS_PER_ADDRESS = 20;
/** Failures one address may make on one account before it waits; each further failure doubles the wait. */
export const FREE_GUESSES = 3;
const FIRST_WAIT_MS = 30_000;
/** Failures on one account, from any addresses, after which its owner is mailed an unlock link (once a window). */
export const UNLOCK_MAIL_AFTER = 10;
/** Sign-ups per address per window: a company signs up once; a script testing which e-mails are taken signs up many times. */
export const SIGN_UPS_PER_ADDRESS = 10;

const subjects = {
  address: (address: string) => `ip:${address}`,
  account: (email: string) => `email:${email}`,
  guesses: (email: string, address: string) => `guess:${email}|${address}`,
};

/** Mail a workspace has the service send to addresses it names (a holder's manage link) is counted by the day. */
export const MAIL_WINDOW_MS = 86_400_000;
const MAIL_SUBJECT = "mail-ws:";

/** One atomic upsert of a subject's count in the current window, so concurrent guesses cannot slip past a limit. */
async function counted(d1: D1Database, subject: string, now: number, windowMs = LOGIN_WINDOW_MS): Promise<{ attempts: number; windowStartedAt: number }> {
  const closed = sql`${loginAttempts.windowStartedAt} <= ${now - windowMs}`;
  return (await database(d1)
    .insert(loginAttempts)
    .values({ subject, windowStartedAt: now, attempts: 1, lastAttemptAt: now })
    .onConflictDoUpdate({
      target: loginAttempts.subject,
      set: {
        attempts: sql`CASE WHEN ${closed} THEN 1 ELSE ${loginAttempts.attempts} + 1 END`,
        windowStartedAt: sql`CASE WHEN ${closed} THEN ${now} ELSE ${loginAttempts.windowStartedAt} END`,
        lastAttemptAt: now,
      },
    })
    .returning({ attempts: loginAttempts.attempts, windowStartedAt: loginAttempts.windowStartedAt })
    .get())!;
}

function refuse(retryAfterMs: number, code: "TOO_MANY_LOGIN_ATTEMPTS" | "API_RATE_LIMITED" = "TOO_MANY_LOGIN_ATTEMPTS"): never {
  throw new ApiError(code, { headers: { "Retry-After": String(Math.max(1, Math.ceil(retryAfterMs / 1000))) } });
}

/** How long an address that failed `failures` times on an account waits after its last failure: none for the first few, then 30 s doubling, at most the window. */
export function guessWaitMs(failures: number): number {
  return failures < FREE_GUESSES ? 0 : Math.min(FIRST_WAIT_MS * 2 ** (failures - FREE_GUESSES), LOGIN_WINDOW_MS);
}

/**
 * Counts a sign-up against the client address before the e-mail is looked up: DUPLICATE_EMAIL tells whether an
 * address has an account, so harvesting the list of taken addresses costs a window per SIGN_UPS_PER_ADDRESS tries.
 * Over the limit: API_RATE_LIMITED with Retry-After.
 */
export async function countSignUpAttempt(d1: D1Database, address: string, now: number = Date.now()): Promise<void> {
  const byAddress = await counted(d1, `signup-ip:${address}`, now);
  if (byAddress.attempts > SIGN_UPS_PER_ADDRESS) refuse(byAddress.windowStartedAt + LOGIN_WINDOW_MS - now, "API_RATE_LIMITED");
}

/**
 * Admits a sign-in attempt before the password is checked, or throws TOO_MANY_LOGIN_ATTEMPTS with Retry-After: an
 * address over its limit, or an address that has been guessing this account and has not waited out its growing
 * delay. An address that has not failed on the account is never held back by others' failures on it, so strangers
 * cannot lock its owner out. Only the address is counted here: an address over its limit adds no row for any e-mail.
 */
export async function admitLoginAttempt(d1: D1Database, email: string, address: string, now: number = Date.now()): Promise<void> {
  const byAddress = await counted(d1, subjects.address(address), now);
  if (byAddress.attempts > ATTEMPTS_PER_ADDRESS) refuse(byAddress.windowStartedAt + LOGIN_WINDOW_MS - now);
  const guesses = await database(d1)
    .select({ attempts: loginAttempts.attempts, lastAttemptAt: loginAttempts.lastAttemptAt })
    .from(loginAttempts)
    .where(and(eq(loginAttempts.subject, subjects.guesses(email, address)), gt(loginAttempts.windowStartedAt, now - LOGIN_WINDOW_MS)))
    .get();
  // Every count sets last_attempt_at, so it is never null here.
  const waitUntil = guesses ? guesses.lastAttemptAt! + guessWaitMs(guesses.attempts) : 0;
  if (now < waitUntil) refuse(waitUntil - now);
}

/** Card registrations per workspace per window: an owner registers a card or two, and retries a mistyped one. */
export const CARD_ATTEMPTS_PER_WORKSPACE = 5;
/** Card registrations per client address per window, whatever workspaces it acts for. */
export const CARD_ATTEMPTS_PER_ADDRESS = 10;

/**
 * Counts a card registration against the client address and then the workspace, before the gateway is asked: each
 * one tells its caller whether a card number is live, so testing stolen cards costs a window per few tries. Over a
 * limit: API_RATE_LIMITED with Retry-After. An address over its limit adds no count to the workspace.
 */
export async function countCardAttempt(d1: D1Database, workspaceId: string, address: string, now: number = Date.now()): Promise<void> {
  for (const [subject, limit, whose] of [[`card-ip:${address}`, CARD_ATTEMPTS_PER_ADDRESS, "주소"], [`card-ws:${workspaceId}`, CARD_ATTEMPTS_PER_WORKSPACE, "워크스페이스"]] as const) {
    const window = await counted(d1, subject, now);
    if (window.attempts <= limit) continue;
    const retryAfter = Math.max(1, Math.ceil((window.windowStartedAt + LOGIN_WINDOW_MS - now) / 1000));
    throw new ApiError("API_RATE_LIMITED", {
      message: `카드 등록은 ${whose}마다 ${LOGIN_WINDOW_MS / 60_000}분에 ${limit}번까지 시도할 수 있습니다. ${Math.ceil(retryAfter / 60)}분 뒤에 다시 시도해 주세요.`,
      headers: { "Retry-After": String(retryAfter) },
    });
  }
}

/** A wrong password (or an unknown e-mail): charged to this address on this account, and to the account. Returns the account's failures this window. */
export async function recordFailedLogin(d1: D1Database, email: string, address: string, now: number = Date.now()): Promise<number> {
  await counted(d1, subjects.guesses(email, address), now);
  return (await counted(d1, subjects.account(email), now)).attempts;
}

/** The failures on one account this window, from any addresses, and when that window closes (0 and now when none). */
export async function accountFailures(d1: D1Database, email: string, now: number = Date.now()): Promise<{ failures: number; windowEndsAt: number }> {
  const row = await database(d1)
    .select({ attempts: loginAttempts.attempts, windowStartedAt: loginAttempts.windowStartedAt })
    .from(loginAttempts)
    .where(and(eq(loginAttempts.subject, subjects.account(email)), gt(loginAttempts.windowStartedAt, now - LOGIN_WINDOW_MS)))
    .get();
  return row ? { failures: row.attempts, windowEndsAt: row.windowStartedAt + LOGIN_WINDOW_MS } : { failures: 0, windowEndsAt: now };
}

/** A failure charged to the account alone (no address is at hand, e.g. a wrong confirmation code in a signed-in session). Returns the account's failures this window. */
export async function recordAccountFailure(d1: D1Database, email: string, now: number = Date.now()): Promise<number> {
  return (await counted(d1, subjects.account(email), now)).attempts;
}

/** A successful sign-in: this address's failures on the account are forgiven, and the address is not charged for it. */
export async function forgiveLoginAttempt(d1: D1Database, email: string, address: string): Promise<void> {
  const db = database(d1);
  await db.batch([
    db.delete(loginAttempts).where(eq(loginAttempts.subject, subjects.guesses(email, address))),
    db.update(loginAttempts).set({ attempts: sql`max(${loginAttempts.attempts} - 1, 0)` }).where(eq(loginAttempts.subject, subjects.address(address))),
  ]);
}

/** The owner followed the unlock link: every address's failures on the account are forgiven. */
export async function unlockAccount(d1: D1Database, email: string): Promise<void> {
  // A prefix compared as text: LIKE patterns as long as an e-mail are too complex for D1.
  const prefix = subjects.guesses(email, "");
  const db = database(d1);
  await db.batch([
    db.delete(loginAttempts).where(eq(loginAttempts.subject, subjects.account(email))),
    db.delete(loginAttempts).where(sql`substr(${loginAttempts.subject}, 1, ${prefix.length}) = ${prefix}`),
  ]);
}

/**
 * Counts one mail a workspace asks the service to send, in the workspace's day window (the caller bounds it): the
 * count so far, this one included, and when the window closes.
 */
export async function countWorkspaceMail(d1: D1Database, workspaceId: string, now: number): Promise<{ count: number; windowEndsAt: number }> {
  const window = await counted(d1, `${MAIL_SUBJECT}${workspaceId}`, now, MAIL_WINDOW_MS);
  return { count: window.attempts, windowEndsAt: window.windowStartedAt + MAIL_WINDOW_MS };
}

/** Rows whose window has closed count nothing: removed in batches of `limit` (the retention cron, worker/domain/retention/purge.ts). */
export async function purgeClosedLoginWindows(d1: D1Database, limit: number, now: number = Date.now()): Promise<number> {
  // A workspace's mail count keeps its day; every other subject's window is LOGIN_WINDOW_MS.
  const where = "window_started_at <= ? AND (substr(subject, 1, ?) <> ? OR window_started_at <= ?)";
  return deleteBatch(d1, "login_attempts", where, [now - LOGIN_WINDOW_MS, MAIL_SUBJECT.length, MAIL_SUBJECT, now - MAIL_WINDOW_MS], limit);
}
