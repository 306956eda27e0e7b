/**
 * The one reader of the worker's settings: every optional variable of `Env` (settings.d.ts) is a string or unset, and each
 * is read through one of these, so a flag and a tuning number mean the same everywhere.
 */

/** A switch such as MAIL_OUTBOX_ONLY or WEBHOOK_ALLOW_LOCAL_URLS: on only when set to "1". */
export const flagOn = (value: string | undefined): boolean => value === "1";

/** A tuning number such as RETRY_BASE_SECONDS: the fallback when unset or empty. */
export const numberOr = (value: string | undefined, fallback: number): number => (value === undefined || value === "" ? fallback : Number(value));

/** A setting that names one of a few choices: the fallback when unset or anything else. */
export const oneOf = <T extends string>(value: string | undefined, choices: readonly T[], fallback: T): T => (choices.includes(value as T) ? (value as T) : fallback);

/** The origin links are built on: PUBLIC_ORIGIN, else (local development) the request's own, which its Host names. */
export const publicOrigin = (env: { PUBLIC_ORIGIN?: string }, requestUrl: string): string => env.PUBLIC_ORIGIN ?? new URL(requestUrl).origin;
