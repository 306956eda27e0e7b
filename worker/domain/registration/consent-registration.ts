import { eq } from "drizzle-orm";
import type { OpenBankingTokenResponse } from "../../../contracts/scraper-protocol";
import { database } from "../../platform/database/client";
import { ApiError } from "../../platform/errors/api-error";
import { findProvider } from "../catalog/providers";
import { consentFaceOf, consentFaceStatement } from "../credentials/consents";
import { assertSameIdentity, restoreStatement } from "../credentials/recovery";
import { checksOnRegistration, credentialRegistered, sendProbe, assertIdentitiesKnown, newCheckId, sealedCredentialRow } from "../credentials/replace";
import { type ActiveJobCheck, findCredential } from "../credentials/store";
import { workspaceBusinessNumber } from "../workspaces/store";
import { assertMayUseProvider } from "../workspaces/provider-access";
import { sessionEnded } from "./events";
import { newConsentRecord } from "../credentials/consent-record";
import { consentOptionOf } from "./open-banking";
import { consumedFor, consumeStatement, consumeWithCredential, sessionStillPending } from "./sessions";
import type { SessionRow } from "./status";
import { registrationSessions } from "./tables";

const PROVIDER = "openbanking";

/**
 * Registers a consent just exchanged (open-banking.ts completeConsent) as the session's credential, as a submission
 * registers a login (submit.ts): within the session's option, business number and lifetime, in the transaction that
 * consumes it; the same person consenting again for the workspace supersedes the earlier consent. A recovery
 * session restores it under the credential's id instead, if it is the same person at the same 이용기관. Its consent
 * record names `textVersion`, the text the hosted page showed and sent back when it completed the consent.
 */
export async function registerConsent(env: Env, session: SessionRow, grant: OpenBankingTokenResponse, textVersion: string, hasActiveJob: ActiveJobCheck): Promise<SessionRow> {
  const now = Date.now();
  const face = consentFaceOf(grant, now);
  if (face.accounts.length === 0) throw new ApiError("REGISTRATION_SESSION_NOT_USABLE", { message: "조회에 동의한 계좌가 없습니다. 계좌를 하나 이상 골라 다시 동의해 주세요." });
  if (session.recoversCredentialId) return recoverConsent(env, session, session.recoversCredentialId, grant, face, textVersion);
  const option = consentOptionOf(session, PROVIDER);
  if ((await workspaceBusinessNumber(env.DB, session.workspaceId)) !== session.businessNumber) throw new ApiError("REGISTRATION_SESSION_BUSINESS_MISMATCH");
  const provider = findProvider(PROVIDER)!;
  await assertMayUseProvider(env.DB, session.workspaceId, provider);
  await assertIdentitiesKnown(env.DB, session.workspaceId);
  const row = await sealedCredentialRow(env.VAULT_MASTER_KEY, session.workspaceId, {
    providerCode: PROVIDER, credential: grant.credential, certificate: null, businessNumber: session.businessNumber, check: checksOnRegistration(env), schemas: option.schemas, consent: face,
    consentRecord: await newConsentRecord(env.DB, session.workspaceId, textVersion, face, now),
  });
  const { after, superseded } = await consumeWithCredential(env, session, row, now);
  await credentialRegistered(env, row, superseded, hasActiveJob);
  await markConnected(env, session.id);
  await sessionEnded(env, after);
  return after;
}

async function recoverConsent(env: Env, session: SessionRow, credentialId: string, grant: OpenBankingTokenResponse, face: ReturnType<typeof consentFaceOf>, textVersion: string): Promise<SessionRow> {
  const row = await findCredential(env.DB, session.workspaceId, credentialId);
  if (row.authMethod !== "OPEN_BANKING") throw new ApiError("REGISTRATION_SESSION_OPTION_NOT_ALLOWED");
  await assertSameIdentity(row, grant.credential, null);
  const checkId = newCheckId(checksOnRegistration(env), row.providerCode);
  const now = Date.now();
  const pending = sessionStillPending(session.id, now);
  const record = await newConsentRecord(env.DB, session.workspaceId, textVersion, face, now);
  await env.DB.batch([
    await restoreStatement(env.DB, env.VAULT_MASTER_KEY, row, grant.credential, checkId, record, pending),
    consentFaceStatement(env.DB, row.id, face, pending),
    consumeStatement(env.DB, session.id, row.id, now),
  ]);
  const after = await consumedFor(env, session, row.id);
  if (checkId) await sendProbe(env, row, row.providerCode, checkId);
  await markConnected(env, session.id);
  await sessionEnded(env, after);
  return after;
}

function markConnected(env: Env, sessionId: string): Promise<unknown> {
  return database(env.DB).update(registrationSessions).set({ consentOutcome: { state: "CONNECTED" } }).where(eq(registrationSessions.id, sessionId)).run();
}
