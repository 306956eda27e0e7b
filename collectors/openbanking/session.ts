import { type AdapterCredential, type InstitutionHttp, type OpenBankingConsent, ProviderFailure } from "../adapter";
import { malformed } from "../kit/failure-text";
import type { BankTranIdSource } from "./bank-tran-id";
import { failureOf } from "./failures";
import { apiOrigin, PATHS } from "./hosts";
import { accountsOf, type ConsentedAccount, type OpenBankingGrant } from "./oauth";
import type { OpenBankingOptions } from "./options";
import { Pacer } from "../kit/protocol/pacer";
import { getJson, type Json } from "./wire";

/**
 * How a session gets a fresh token when KFTC refuses the one it has: the deployment's keys and a way to seal the
 * new tokens before they are used (the old refresh token dies with the refresh). Without it, an expired token is
 * NO_VALID_CREDENTIAL and the worker's own refresh (before expiry) is what keeps consents alive.
 */
export interface OpenBankingRefresher {
  refresh(http: InstitutionHttp, credential: OpenBankingConsent): Promise<OpenBankingGrant>;
}

export interface OpenBankingDeps {
  ids: BankTranIdSource;
  refresher?: OpenBankingRefresher;
  now: () => number;
}

export interface OpenBankingSession {
  http: InstitutionHttp;
  credential: OpenBankingConsent;
  options: OpenBankingOptions;
  deps: OpenBankingDeps;
  pacer: Pacer;
  refreshed: boolean;
  /** `account/list` as read at login: every account the consent names, by `fintech_use_num`. */
  accounts: Map<string, ConsentedAccount>;
}

/** Past its end; under `ahead` also within the skew, since a refresh then is one KFTC may refuse otherwise. */
const expired = (credential: OpenBankingConsent, now: number, options: OpenBankingOptions) => {
  const at = Date.parse(credential.expiresAt);
  const skewMs = options.refreshPolicy === "ahead" ? options.expirySkewSeconds * 1000 : 0;
  return !Number.isFinite(at) || at - skewMs <= now;
};

async function refresh(session: OpenBankingSession, why: string): Promise<void> {
  if (!session.deps.refresher || session.refreshed) throw new ProviderFailure("NO_VALID_CREDENTIAL", `open banking token ${why}, not refreshable here`);
  session.refreshed = true;
  const grant = await session.deps.refresher.refresh(session.http, session.credential);
  session.credential = grant.credential;
}

/** One GET of the API with the session's token: paced, and refreshed once when KFTC refuses the token. */
export async function call(session: OpenBankingSession, path: string, params: Record<string, string>, where: string): Promise<Json> {
  for (;;) {
    await session.pacer.wait();
    const url = `${apiOrigin(session.options.environment)}${path}?${new URLSearchParams(params)}`;
    const answer = await getJson(session.http, url, session.credential.accessToken, where);
    const rsp = typeof answer.rsp_code === "string" ? answer.rsp_code : "";
    if (!rsp) throw malformed(`${where}: answer without rsp_code`);
    if (session.options.tokenRejectedCodes.includes(rsp) && session.deps.refresher && !session.refreshed) {
      await refresh(session, `refused (${rsp})`);
      continue;
    }
    return answer;
  }
}

/** A success answer's check: `A0000`, and for bank-routed calls `bank_rsp_code` `000`. */
export function checked(answer: Json, where: string, options: OpenBankingOptions): Json {
  if (answer.rsp_code !== "A0000") throw failureOf(answer, where, options.quotaRetryAfterSeconds);
  if (typeof answer.bank_rsp_code === "string" && answer.bank_rsp_code !== "" && answer.bank_rsp_code !== "000") throw failureOf({ ...answer, rsp_code: "A0002" }, where, options.quotaRetryAfterSeconds);
  return answer;
}

/**
 * Login is the consent (no password at KFTC): a token past its end is refreshed or refused before a request,
 * then `account/list` proves the token and names the accounts the consent covers.
 */
export async function logIn(http: InstitutionHttp, credential: AdapterCredential, options: OpenBankingOptions, deps: OpenBankingDeps): Promise<OpenBankingSession> {
  if (credential.authMethod !== "OPEN_BANKING") throw new ProviderFailure("NO_VALID_CREDENTIAL", `open banking takes a consent, not ${credential.authMethod}`);
  if (!/^[A-Z0-9]{10}$/.test(credential.clientUseCode)) throw new ProviderFailure("NO_VALID_CREDENTIAL", "open banking consent without a 10-character 이용기관 code");
  const session: OpenBankingSession = { http, credential, options, deps, pacer: new Pacer(options.minIntervalMs), refreshed: false, accounts: new Map() };
  if (expired(credential, deps.now(), options)) await refresh(session, `expired at ${credential.expiresAt}`);
  const where = "account/list";
  const answer = checked(await call(session, PATHS.accountList, { user_seq_no: session.credential.userSeqNo, include_cancel_yn: "N", sort_order: "A" }, where), where, options);
  for (const account of accountsOf(answer, where)) session.accounts.set(account.fintechUseNum, account);
  return session;
}
