import type { JobErrorCode } from "../../../contracts/job-failures";

// The institution refused the login itself: trying it again would only bring the account closer to (or keep it in) its lock.
export const INVALIDATES_CREDENTIAL: ReadonlySet<JobErrorCode> = new Set(["LOGIN_FAILED", "LOGIN_LOCKED"]);

// Our own engine being full says nothing about the institution or the credential: the job waits
// for capacity until its deadline without spending an attempt, so a busy hour never ends a job
// that one more login would finish.
export const WAITS_FOR_CAPACITY: ReadonlySet<JobErrorCode> = new Set(["ENGINE_CONCURRENCY_LIMIT"]);
