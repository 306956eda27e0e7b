import type { JobErrorCode } from "../../../contracts/job-failures";

// The institution refused the login itself: trying it again would only bring the account closer to (or keep it in) its lock.
// NO_VALID_CREDENTIAL marks only an Open Banking consent (its token refused and not refreshable: the consent ended),
// so that a recovery session may ask the person again (credentials/job-credential.ts invalidateCredential).
export const INVALIDATES_CREDENTIAL: ReadonlySet<JobErrorCode> = new Set(["LOGIN_FAILED", "LOGIN_LOCKED", "NO_VALID_CREDENTIAL"]);

// Our own engine being full says nothing about the institution or the credential: the job waits
// for capacity until its deadline without spending an attempt, so a busy hour never ends a job
// that one more login would finish.
export const WAITS_FOR_CAPACITY: ReadonlySet<JobErrorCode> = new Set(["ENGINE_CONCURRENCY_LIMIT"]);
