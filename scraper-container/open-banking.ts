import { ProviderFailure } from "../collectors/adapter";
import { exchangeCode, OPENBANKING_HOSTS, type OpenBankingKeys, refreshConsent, userMe } from "../collectors/openbanking";
import { institutionHttp } from "../collectors/kit/protocol/institution-http";
import type { OpenBankingTokenRequest, OpenBankingTokenResponse } from "../contracts/scraper-protocol";
import { HttpFailure } from "./http-io";

/**
 * The deployment's 이용기관 keys (docs/deploying.md, "Open Banking"): all three, or none (Open Banking is then
 * not offered by this scraper: its token calls answer UNKNOWN, for the operators to configure).
 */
export function openBankingKeysFromEnv(env: NodeJS.ProcessEnv): OpenBankingKeys | undefined {
  const { OPENBANKING_CLIENT_ID: clientId, OPENBANKING_CLIENT_SECRET: clientSecret, OPENBANKING_CLIENT_USE_CODE: clientUseCode } = env;
  if (!clientId && !clientSecret && !clientUseCode) return undefined;
  if (!clientId || !clientSecret || !clientUseCode || !/^[A-Z0-9]{10}$/.test(clientUseCode)) {
    throw new Error("OPENBANKING_CLIENT_ID, OPENBANKING_CLIENT_SECRET and OPENBANKING_CLIENT_USE_CODE (10 characters) go together");
  }
  return { clientId, clientSecret, clientUseCode };
}

/** A request's keys, checked as the environment's are; malformed: 400 (never echoed back). */
function requestKeys(keys: unknown): OpenBankingKeys {
  const k = keys as Partial<OpenBankingKeys> | null;
  if (!k || typeof k.clientId !== "string" || !k.clientId || typeof k.clientSecret !== "string" || !k.clientSecret || typeof k.clientUseCode !== "string" || !/^[A-Z0-9]{10}$/.test(k.clientUseCode)) {
    throw new HttpFailure(400, "INTERNAL_ERROR");
  }
  return { clientId: k.clientId, clientSecret: k.clientSecret, clientUseCode: k.clientUseCode };
}

export interface OpenBankingTokenDeps {
  keys?: OpenBankingKeys;
  /** INSTITUTION_BASE_URLS' `openbanking` entry. */
  standIns?: Readonly<Record<string, string>>;
  /** The egress of the `openbanking` provider (egress.ts). */
  transport: typeof fetch;
  timeoutMs?: number;
}

/**
 * One token call for the worker (contracts/scraper-protocol.ts OpenBankingTokenRequest), at the production host
 * (the registry's adapter's), through the same stand-ins and egress as the adapter's own calls. Failures are the
 * adapter's ProviderFailures (LOGIN_FAILED for a code that did not complete, NO_VALID_CREDENTIAL for a refused
 * refresh, UNKNOWN for our keys): the failure envelope carries KFTC's text as `detail`, for the operators' log.
 */
export async function openBankingTokens(input: Record<string, unknown>, deps: OpenBankingTokenDeps): Promise<OpenBankingTokenResponse> {
  const request = input as Partial<OpenBankingTokenRequest>;
  // A partner's own keys (§1.5) in the request replace this scraper's for this call only.
  const keys = request.keys === undefined ? deps.keys : requestKeys(request.keys);
  if (!keys) throw new ProviderFailure("UNKNOWN", "this scraper has no Open Banking keys (OPENBANKING_CLIENT_ID, OPENBANKING_CLIENT_SECRET, OPENBANKING_CLIENT_USE_CODE)");
  const http = institutionHttp({ hosts: OPENBANKING_HOSTS, standIns: deps.standIns, transport: deps.transport, timeoutMs: deps.timeoutMs });
  if (request.grant === "authorization_code" && typeof request.code === "string" && typeof request.redirectUri === "string") {
    const grant = await exchangeCode(http, "production", keys, request.code, request.redirectUri);
    const me = await userMe(http, "production", grant.credential);
    const accounts = me.accounts.map(({ fintechUseNum, bankCodeStd, bankName, accountNumMasked, accountAlias, inquiryAgreed }) => ({ fintechUseNum, bankCodeStd, bankName, accountNumMasked, accountAlias, inquiryAgreed }));
    return { ...grant, accounts };
  }
  if (request.grant === "refresh_token" && request.credential?.authMethod === "OPEN_BANKING" && typeof request.consentGivenAt === "string") {
    // A consent issued to another 이용기관 (a partner's own keys, or keys since replaced) cannot be refreshed with these.
    if (request.credential.clientUseCode !== keys.clientUseCode) throw new ProviderFailure("NO_VALID_CREDENTIAL", "consent of another 이용기관 than the keys of this call");
    return refreshConsent(http, "production", keys, request.credential, request.consentGivenAt);
  }
  throw new HttpFailure(400, "INTERNAL_ERROR");
}
