/**
 * The holders that keep a credential's lease for a few seconds, not a job's run: a login check and an Open Banking
 * consent's token refresh. A job finding one waits those seconds rather than fail LOCK_CONTENTION.
 */
const PROBE_HOLDER = "probe:";
const REFRESH_HOLDER = "refresh:";

/** The lease holder a probe takes the credential's lease as. */
export const probeHolder = (checkId: string) => `${PROBE_HOLDER}${checkId}`;

/** The lease holder a consent's refresh takes the credential's lease as. */
export const refreshHolder = (credentialId: string) => `${REFRESH_HOLDER}${credentialId}`;

export const isBriefHolder = (holder: string) => holder.startsWith(PROBE_HOLDER) || holder.startsWith(REFRESH_HOLDER);
