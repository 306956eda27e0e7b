/** The CLI's exit statuses, documented in cli/README.md. */
export const EXIT = {
  OK: 0,
  /** A job ended Failed, or a credential check did not pass. */
  FAILED: 1,
  /** Unknown command, option or argument. */
  USAGE: 2,
  /** The service answered an error (or could not be reached). */
  API_ERROR: 3,
  /** No API key: run `collect login` or set COLLECT_API_KEY. */
  NOT_LOGGED_IN: 4,
  /** A wait ran past the job's maxWaitSeconds. */
  TIMEOUT: 5,
  /** Stopped by Ctrl-C (or SIGTERM) before it finished. */
  INTERRUPTED: 130,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** Thrown by a command for a mistake in how it was called. */
export class UsageError extends Error {
  override readonly name = "UsageError";
}

export class NotLoggedInError extends Error {
  override readonly name = "NotLoggedInError";
  constructor() {
    super("not logged in: run `collect login` (or set COLLECT_API_KEY)");
  }
}
