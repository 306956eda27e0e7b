import { env } from "cloudflare:workers";
import { expect } from "vitest";
import { callJson, type TestWorkspace } from "./helpers";
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
