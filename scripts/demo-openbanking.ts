import { walkReplicaConsent } from "../sandbox/openbanking/walk-consent";

/** The demo's Open Banking person at the replica: three accounts at three banks (sandbox/openbanking/ground-truth.ts). */
export const DEMO_OPENBANKING_USER = "obuser1";

type Json = Record<string, any>;

/**
 * Gives a workspace of a running local stack a consented `openbanking` credential, through the real flow and nothing
 * else: a registration session offering Open Banking, our route that starts a consent, the replica's consent page (by
 * plain HTTP, as `loginId`, every account ticked), then the completion the hosted page makes with the callback's answer,
 * which has the scraper exchange the code and seals the tokens as it does for any person. The replica keeps its tokens in memory, so this runs on every start: a consent of
 * the same person supersedes the one of the last start (docs/credentials.md, "Open Banking consents").
 */
export async function consentOpenBanking(baseUrl: string, apiKey: string, loginId = DEMO_OPENBANKING_USER): Promise<{ credentialId: string; accounts: number }> {
  const api = async (method: string, path: string, body?: unknown, bearer = apiKey): Promise<Json> => {
    const res = await fetch(`${baseUrl}${path}`, { method, headers: { Authorization: `Bearer ${bearer}`, ...(body ? { "Content-Type": "application/json" } : {}) }, body: body ? JSON.stringify(body) : undefined });
    const json = (await res.json()) as Json;
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  };
  const session = await api("POST", "/api/v1/registration-sessions", {
    registrationOptions: [{ kind: "PROVIDER_LOGIN", providerCode: "openbanking" }],
    originAllowlist: [baseUrl],
    clientReferenceId: "demo-openbanking",
  });
  const started = await api("POST", "/connect/api/open-banking/authorizations", { providerCode: "openbanking" }, session.sessionToken);
  const callback = await walkReplicaConsent(started.authorizationUrl, loginId);
  // As the hosted page does once its consent window hands it KFTC's answer: complete, naming the consent text it showed.
  const { consentText } = await api("GET", "/connect/api/session", undefined, session.sessionToken);
  const outcome = await api("POST", "/connect/api/open-banking/completions", { callbackQuery: callback.search, consentTextVersion: consentText.version }, session.sessionToken);
  if (outcome.state !== "CONNECTED") throw new Error(`the demo consent ended ${outcome.state}: ${outcome.code} ${outcome.message}`);
  const { credentialId } = await api("GET", `/api/v1/registration-sessions/${session.sessionId}`);
  const credential = await api("GET", `/api/v1/credentials/${credentialId}`);
  return { credentialId, accounts: credential.consent?.accounts?.length ?? 0 };
}
