import { ProviderFailure } from "../../../collectors/adapter";
import { jobError } from "../../../contracts/job-failures";
import { findProvider } from "../catalog/providers";
import type { ProbeMessage } from "../jobs/messages";
import { INVALIDATES_CREDENTIAL, WAITS_FOR_CAPACITY } from "./failure-policy";
import type { Outcome, PipelineDeps } from "./ports";
import { endLease } from "./released-leases";
import { probeHolder } from "./brief-holders";
import { log } from "../../platform/observability/telemetry";
import { redactText } from "../../../collectors/kit/redaction";

// The engine is full, or a job holds the credential: the probe asks again, at the soonest this soon.
const WAIT_SECONDS = 5;

/**
 * A credential's check: one login at the institution under the credential's lease, as a job's would be, then
 * logged out. A login that goes through is VALID; a refusal by the institution or the user's side (the job
 * error categories CREDENTIAL and USER_ENVIRONMENT) is INVALID with that error, and a refused password marks
 * the credential as a job's would; anything else (the institution unavailable) is UNKNOWN with its error, for
 * the owner to check again. A credential deleted or refused meanwhile is left as it is.
 */
export async function executeProbe(deps: PipelineDeps, message: ProbeMessage): Promise<Outcome> {
  const provider = findProvider(message.providerCode)!;
  const lock = deps.lockFor(message.credentialId);
  const holder = probeHolder(message.checkId);
  const lease = await lock.acquire(holder, deps.leaseMs);
  // A job logs in on the credential now: the probe asks again once that lease could have ended.
  if (!lease.granted) return { kind: "retry", delaySeconds: Math.max(WAIT_SECONDS, Math.ceil((lease.leaseUntil - deps.now()) / 1000)) };
  const scraper = deps.scraperFor(provider);
  let opened: string | undefined;
  try {
    // A job parked its login on this lease before: the probe logs in afresh, so that session goes, as a job's would.
    if (lease.supersededSessionId) await scraper.closeSession(lease.supersededSessionId);
    const found = await deps.loadCredential(message.credentialId);
    if (found.kind !== "usable") return { kind: "ack" };
    opened = found.sealed;
    await scraper.closeSession((await scraper.openSession(provider.code, found.login, found.businessNumber ?? undefined)).sessionId);
    await deps.checkSettled(message.credentialId, message.checkId, { state: "VALID" });
  } catch (err) {
    const failure = err instanceof ProviderFailure ? err : new ProviderFailure("INTERNAL_ERROR", String(err));
    if (WAITS_FOR_CAPACITY.has(failure.code)) return { kind: "retry", delaySeconds: WAIT_SECONDS };
    if (!(err instanceof ProviderFailure)) log("error", "probe-error", { credentialId: message.credentialId, error: redactText(String(err)) });
    const error = jobError(failure.code, failure.retryAfterSeconds);
    if (INVALIDATES_CREDENTIAL.has(error.code)) await deps.invalidateCredential(message.credentialId, error.code, opened);
    const refused = error.category === "CREDENTIAL" || error.category === "USER_ENVIRONMENT";
    await deps.checkSettled(message.credentialId, message.checkId, { state: refused ? "INVALID" : "UNKNOWN", error });
  } finally {
    await endLease(deps, lock, holder, provider);
  }
  return { kind: "ack" };
}
