import { env } from "cloudflare:workers";
import { expect } from "vitest";
import { walkReplicaConsent } from "../../../sandbox/openbanking/walk-consent";
import { CURRENT_CONSENT_TEXT_VERSION } from "../../../worker/domain/credentials/consent-text";
import { call, callJson, type TestWorkspace } from "./helpers";
import { asPartner, connectionTo, partnerWithConnection } from "./partner-helpers";
import { encryptForService, hostedUiHeaders } from "./registration-envelope";

type Json = Record<string, any>;

export const BUSINESS = "1208800767";
export const PARTNER_NAME = "경리나라";
export const ORIGINS = ["https://partner.example"];
const BANK = { kind: "PROVIDER_LOGIN", providerCode: "sandbox.bank" };

/** What the hosted page does: read the session (its consent text among it), encrypt the login, submit naming the text's version. */
export async function submitLogin(token: string, loginId = "user_good", overrides: Json = {}) {
  const session = (await callJson<Json>("/connect/api/session", { headers: hostedUiHeaders(token) })).body;
  const envelope = await encryptForService(session.encryptionKey, session.sessionId, { loginId, password: "pass_good" });
  const json = { kind: "PROVIDER_LOGIN", providerCode: "sandbox.bank", consentTextVersion: session.consentText.version, envelope, ...overrides };
  return { session, submitted: await callJson<Json>("/connect/api/registrations", { method: "POST", headers: hostedUiHeaders(token), json }) };
}

/** A registration session the partner issues for its business (or, with `recoverCredentialId`, a recovery session). */
export function issueSession(partner: TestWorkspace, extra: Json = {}) {
  return callJson<Json>("/api/v1/registration-sessions", { method: "POST", json: { registrationOptions: [BANK], originAllowlist: ORIGINS, ...extra }, ...asPartner(partner.apiKey, BUSINESS) });
}

/** A named partner connected to BUSINESS, and the workspace it keeps the business's credentials in. */
export async function namedPartner() {
  const partner = await partnerWithConnection(BUSINESS);
  expect((await callJson("/api/v1/partner-profile", { method: "PATCH", key: partner.apiKey, json: { name: PARTNER_NAME } })).status).toBe(200);
  return { partner, business: await connectionTo(partner, BUSINESS) };
}

/** A bank login the business's holder registered in the hosted page, at the partner's request, consenting to `schemas`. */
export async function heldCredential(partner: TestWorkspace, schemas: string[] = ["bank.transactions.cb.v1"]): Promise<Json> {
  const issued = await issueSession(partner, { registrationOptions: [{ ...BANK, schemas }] });
  const { submitted } = await submitLogin(issued.body.sessionToken);
  expect(submitted.status).toBe(201);
  const { credentialId } = (await callJson<Json>(`/api/v1/registration-sessions/${issued.body.sessionId}`, asPartner(partner.apiKey, BUSINESS))).body;
  return (await callJson<Json>(`/api/v1/credentials/${credentialId}`, asPartner(partner.apiKey, BUSINESS))).body;
}

/** The credential's row as D1 holds it. */
export const credentialRow = (id: string) => env.DB.prepare("SELECT * FROM credentials WHERE id = ?").bind(id).first<Json>();

/**
 * Moves a consent's access token's end (KFTC's tokens live 90 days) to `at`, so that a refresh run soon after finds
 * this consent due. The consents other files left in the runtime's shared storage end 90 days on, so that run finds
 * none of them due. A run 91 days on found them all due, oldest first, and reached this consent only while fewer than
 * a run's REFRESHES_PER_RUN were ahead of it.
 */
export const endTokenAt = (credentialId: string, at: number) =>
  env.DB.prepare("UPDATE credentials SET consent = json_set(consent, '$.tokenExpiresAt', ?) WHERE id = ?").bind(new Date(at).toISOString(), credentialId).run();

/**
 * What the hosted page does with KFTC's answer once the consent window it opened hands it over: that window loads our
 * callback page (which completes nothing by itself), then the page completes the consent, naming the text it showed.
 */
export async function completeOpenBanking(token: string, callback: URL, consentTextVersion = CURRENT_CONSENT_TEXT_VERSION) {
  const handOff = await call(`${callback.pathname}${callback.search}`);
  expect(handOff.status).toBe(200);
  expect(await handOff.text()).toContain("collect:open-banking-callback");
  return callJson<Json>("/connect/api/open-banking/completions", { method: "POST", headers: hostedUiHeaders(token), json: { callbackQuery: callback.search, consentTextVersion } });
}

/** Our route's authorization URL for the session, and the callback the replica sends the person's browser to once they answered there. */
export async function consentAtReplica(token: string, loginId: string, options: { fintechs?: string[]; action?: "agree" | "cancel" } = {}): Promise<{ authorize: URL; callback: URL }> {
  const started = await callJson<Json>("/connect/api/open-banking/authorizations", { method: "POST", headers: hostedUiHeaders(token), json: { providerCode: "openbanking" } });
  expect(started.status, JSON.stringify(started.body)).toBe(201);
  const authorize = new URL(started.body.authorizationUrl);
  expect(authorize.pathname).toMatch(/\/openbanking\/openapi\.openbanking\.or\.kr\/oauth\/2\.0\/authorize$/);
  const callback = await walkReplicaConsent(authorize.toString(), loginId, options);
  expect(callback.origin).toBe("https://api.test");
  return { authorize, callback };
}
