import { ProviderFailure } from "../../../collectors/adapter";
import type { AdapterCredential, HolderApproval, RawRecord, Target, TaskUnit } from "../../../contracts/task-unit";

/** A login the runtime made: its session, and what waits for the holder where they approve it on their phone. */
export interface OpenedSession {
  sessionId: string;
  awaiting?: HolderApproval;
}

/**
 * What the pipeline needs from a scraper runtime, whether the scraper
 * container (over HTTP) or Browser Rendering (in the worker). Failures are
 * thrown as ProviderFailure with a catalog code.
 */
export interface ScraperPort {
  /**
   * Logs in to the provider's site (the runtime knows where it is) and returns a session that later calls reuse.
   * `businessNumber`: the credential's business (the workspace's unless registered for another), so a site that shows whose account it is can refuse another business's.
   */
  openSession(providerCode: string, credential: AdapterCredential, businessNumber?: string): Promise<OpenedSession>;
  /** Resolves once the session is logged in; AwaitingHolder while its holder has not approved the login on their phone. */
  ready(sessionId: string): Promise<void>;
  targets(sessionId: string, schema: string): Promise<Target[]>;
  /** `boundMs`: how long the unit may run before the scraper counts as stuck, where the provider's pace needs longer than the runtime's own bound. */
  collect(sessionId: string, unit: TaskUnit, boundMs?: number): Promise<RawRecord[]>;
  closeSession(sessionId: string): Promise<void>;
}

/**
 * A call on a session whose holder has not approved its login yet (간편인증): the scraper waited for it a while
 * (APPROVAL_WAIT_MS) and the job asks again. Not a failure: no catalog code, and no attempt is spent on it.
 */
export class AwaitingHolder extends Error {
  constructor(readonly approval: HolderApproval) {
    super("awaiting the holder's approval");
    this.name = "AwaitingHolder";
  }
}

/** The scraper no longer knows the session (restart, idle close): log in again and carry on. */
export class SessionGone extends ProviderFailure {
  constructor() {
    super("SESSION_EXPIRED", "scraper session gone");
  }
}
