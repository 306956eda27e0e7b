import { type AdapterContext, type InstitutionHttp, ProviderFailure } from "../adapter";
import type { LoginCredential } from "../../contracts/task-unit";
import { certificateLogin } from "./certificate-login";
import { PORTAL } from "./hosts";
import { idLogin } from "./id-login";
import type { HometaxOptions } from "./options";
import { type HometaxDeps, REAL_DEPS } from "./pacing";
import { type Json, PortalClient } from "./portal-client";
import { loggedIn } from "./portal-session";
import { simpleAuthLogin } from "./simple-auth";

/** A logged-in portal session and the sub-site sessions opened from it, one per site, on first use. */
export interface HometaxSession {
  client: PortalClient;
  portal: Json;
  sites: Map<string, Promise<Json>>;
}

/** 20 characters like the page's `query=_…` nonce on token.do (S1, S4). */
function tokenQuery(): string {
  const alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  return Array.from(crypto.getRandomValues(new Uint8Array(20)), (b) => alphabet[b % alphabet.length]).join("");
}

export async function logIn(http: InstitutionHttp, credential: LoginCredential, ctx: AdapterContext, options: HometaxOptions, deps: HometaxDeps = REAL_DEPS): Promise<HometaxSession> {
  if (credential.authMethod === "OPEN_BANKING") throw new ProviderFailure("NO_VALID_CREDENTIAL", "hometax takes a certificate, an ID login or 간편인증, not a consent");
  // The phone is asked and the login waits for its answer until the request lapses (simple-auth.ts).
  if (credential.authMethod === "SIMPLE_AUTH") return simpleAuthLogin(http, credential, ctx, options, deps);
  const client = new PortalClient(http, options, deps);
  if (credential.authMethod === "CERTIFICATE") await certificateLogin(client, credential, ctx.businessNumber);
  else await idLogin(client, credential);
  return loggedIn(client, ctx);
}

/**
 * A sub-site session (teet, tecr): the portal's single-use token (`token.do`) presented to the sub-site's
 * `permission.do` (S1, S3). A sub-site that answers without `sessionMap` has no session for this login.
 */
export function subSite(session: HometaxSession, site: string, screenId: string): Promise<Json> {
  let opened = session.sites.get(site);
  if (!opened) {
    opened = hop(session.client, site, screenId);
    session.sites.set(site, opened);
    opened.catch(() => session.sites.delete(site));
  }
  return opened;
}

async function hop(client: PortalClient, site: string, screenId: string): Promise<Json> {
  const token = PortalClient.json(await client.request(`${PORTAL}/token.do?query=_${tokenQuery()}`, { method: "POST", headers: { "Content-Type": "application/json; charset=UTF-8" }, body: "{}" }));
  if (typeof token.ssoToken !== "string" || !token.ssoToken || token.ssoToken === "null") throw new ProviderFailure("SESSION_EXPIRED", "token.do gave no ssoToken");
  const answer = await client.request(`${site}/permission.do?screenId=${screenId}&domain=hometax.go.kr`, {
    method: "POST",
    headers: { "Content-Type": "application/json; charset=UTF-8" },
    body: JSON.stringify({ ...token, popupYn: false }),
  });
  const sessionMap = (PortalClient.checkResult(PortalClient.json(answer)).resultMsg as Json).sessionMap;
  if (!sessionMap || typeof sessionMap !== "object") throw new ProviderFailure("SESSION_EXPIRED", `${new URL(site).hostname} opened no session`);
  return sessionMap as Json;
}
