import { type AdapterCredential, ProviderFailure, type RawRecord, type Target, type TaskUnit } from "../../../collectors/adapter";

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
  openSession(providerCode: string, credential: AdapterCredential, businessNumber?: string): Promise<string>;
  targets(sessionId: string, schema: string): Promise<Target[]>;
  /** `boundMs`: how long the unit may run before the scraper counts as stuck, where the provider's pace needs longer than the runtime's own bound. */
  collect(sessionId: string, unit: TaskUnit, boundMs?: number): Promise<RawRecord[]>;
  closeSession(sessionId: string): Promise<void>;
}

/** The scraper no longer knows the session (restart, idle close): log in again and carry on. */
export class SessionGone extends ProviderFailure {
  constructor() {
    super("SESSION_EXPIRED", "scraper session gone");
  }
}
