import { workspaceBusinessNumber } from "../workspaces/store";
import { assertBusinessFor, assertMayUseProvider } from "../workspaces/provider-access";
import { checkAuthMethod, credentialFromFields, credentialScope, providerForCredential } from "../credentials/fields";
import { findCredential } from "../credentials/store";
import { checksHostedLogins, checksOnRegistration, credentialRegistered, sendProbe, assertIdentitiesKnown, newCheckId, sealedCredentialRow, checkCredential } from "../credentials/replace";
import { assertSameIdentity, recoveryProviderCode, restoreStatement } from "../credentials/recovery";
import { ApiError } from "../../platform/errors/api-error";
import { sessionEnded } from "./events";
import { newConsentRecord } from "../credentials/consent-record";
import { CURRENT_CONSENT_TEXT_VERSION } from "../credentials/consent-text";
import { decryptEnvelope, type E2eEnvelope } from "./e2e-keys";
import { consumedFor, consumeStatement, consumeWithCredential, recordFailedAttempt, sessionStillPending, usableSessionForPage } from "./sessions";
import type { SessionRow } from "./status";
import { type LoginCheckDeps, type LoginCheckState, startLoginCheck } from "./login-check";

export interface Submission {
  kind: "PROVIDER_LOGIN" | "CERTIFICATE";
  /** How a PROVIDER_LOGIN option's person logs in, where the provider takes several ways (hometax: ID or 간편인증); ID login when absent. */
  authMethod?: "PROVIDER_LOGIN" | "SIMPLE_AUTH";
  providerCode?: string;
  envelope: E2eEnvelope;
  /** The consent text the page showed (credentials/consent-text.ts), checked by the route; the current one when the page named none. */
  consentTextVersion?: string;
}

/**
 * Registers the credential an end-user entered in the hosted UI: only
 * within the options, business number and lifetime fixed at issue, only
 * and only once. A rejected submission counts against the session's attempts. `hasActiveJob` (jobs/store.ts) tells
 * whether a credential it supersedes may lose its secret now. A login (ID or 간편인증) is first checked at the
 * institution (login-check.ts) and stored only once it is let in: the answer says CONNECTED, or that the check goes on.
 */
export async function submitRegistration(env: Env, token: string, submission: Submission, deps: LoginCheckDeps): Promise<LoginCheckState> {
  const session = await usableSessionForPage(env.DB, token);
  try {
    return await register(env, session, submission, deps);
  } catch (err) {
    // A login the institution refused was counted by its check, and one it could not check costs no attempt; nor does
    // a holder's phone asked too often already (nothing was tried).
    if (err instanceof ApiError && err.status < 500 && err.code !== "CREDENTIAL_PROBE_FAILED" && err.code !== "API_RATE_LIMITED") await recordFailedAttempt(env, session.id);
    throw err;
  }
}

/**
 * A recovery session's submission: the same login or certificate as the credential it restores (its own method
 * and provider, whatever the page sent), checked as a registration is, then sealed back under the credential's id
 * in the transaction that consumes the session.
 */
async function recover(env: Env, session: SessionRow, credentialId: string, submission: Submission): Promise<SessionRow> {
  const row = await findCredential(env.DB, session.workspaceId, credentialId);
  if (submission.kind !== row.authMethod) throw new ApiError("REGISTRATION_SESSION_OPTION_NOT_ALLOWED");
  const scope = credentialScope(recoveryProviderCode(row), row.authMethod);
  const fields = await decryptEnvelope(env.REGISTRATION_E2E_KEYS, session.id, submission.envelope);
  const credential = credentialFromFields(scope, row.authMethod, fields, "fields");
  const certificate = await checkCredential(credential, row.businessNumber);
  await assertSameIdentity(row, credential, certificate);
  const checkId = newCheckId(checksOnRegistration(env), row.providerCode);
  const now = Date.now();
  const record = await newConsentRecord(env.DB, session.workspaceId, submission.consentTextVersion ?? CURRENT_CONSENT_TEXT_VERSION, row.consent, now);
  await env.DB.batch([
    await restoreStatement(env.DB, env.VAULT_MASTER_KEY, row, credential, checkId, record, sessionStillPending(session.id, now)),
    consumeStatement(env.DB, session.id, row.id, now),
  ]);
  const after = await consumedFor(env, session, row.id);
  if (checkId) await sendProbe(env, row, row.providerCode, checkId);
  await sessionEnded(env, after);
  return after;
}

async function register(env: Env, session: SessionRow, submission: Submission, deps: LoginCheckDeps): Promise<LoginCheckState> {
  if (session.recoversCredentialId) return { state: "CONNECTED", session: await recover(env, session, session.recoversCredentialId, submission) };
  const option = session.options.find((o) => o.kind === submission.kind && (o.kind === "CERTIFICATE" || o.providerCode === submission.providerCode));
  if (!option) throw new ApiError("REGISTRATION_SESSION_OPTION_NOT_ALLOWED");
  if ((await workspaceBusinessNumber(env.DB, session.workspaceId)) !== session.businessNumber) throw new ApiError("REGISTRATION_SESSION_BUSINESS_MISMATCH");

  // A certificate option names no provider at issue: the end-user picks one that takes certificates.
  // (A provider login without a code never matched an option above.)
  if (submission.providerCode === undefined) throw new ApiError("PROVIDER_CODE_REQUIRED_FOR_GLOBAL_CERT");
  const provider = providerForCredential(submission.providerCode, "body.providerCode");
  const authMethod = submission.kind === "PROVIDER_LOGIN" ? (submission.authMethod ?? "PROVIDER_LOGIN") : submission.kind;
  checkAuthMethod(provider, authMethod, submission.authMethod ? "body.authMethod" : "body.kind", true);
  await assertMayUseProvider(env.DB, session.workspaceId, provider);
  assertBusinessFor(session.businessNumber, provider, authMethod);
  const fields = await decryptEnvelope(env.REGISTRATION_E2E_KEYS, session.id, submission.envelope);
  const credential = credentialFromFields(provider, authMethod, fields, "fields");
  const certificate = await checkCredential(credential, session.businessNumber);
  await assertIdentitiesKnown(env.DB, session.workspaceId);
  const now = Date.now();
  const consentRecord = await newConsentRecord(env.DB, session.workspaceId, submission.consentTextVersion ?? CURRENT_CONSENT_TEXT_VERSION, null, now);
  // A login is checked at the institution before it is stored (a 간편인증 one always: its approval is the check); a
  // certificate was checked above and goes to the probe, as before.
  const checkFirst = authMethod === "SIMPLE_AUTH" || (authMethod === "PROVIDER_LOGIN" && checksHostedLogins(env));
  const row = await sealedCredentialRow(env.VAULT_MASTER_KEY, session.workspaceId, { providerCode: provider.code, credential, certificate, businessNumber: session.businessNumber, check: !checkFirst && checksOnRegistration(env), schemas: option.schemas, consentRecord });
  if (checkFirst) return startLoginCheck(env, deps, session, row, credential);
  const { after, superseded } = await consumeWithCredential(env, session, row, now);
  await credentialRegistered(env, row, superseded, deps.hasActiveJob);
  await sessionEnded(env, after);
  return { state: "CONNECTED", session: after };
}
