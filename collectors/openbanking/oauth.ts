import { type InstitutionHttp, type OpenBankingConsent, ProviderFailure } from "../adapter";
import { malformed } from "../kit/failure-text";
import { failureOf } from "./failures";
import { apiOrigin, type OpenBankingEnvironment, PATHS } from "./hosts";
import { DEFAULT_OPTIONS } from "./options";
import { getJson, type Json, optionalField, postForm } from "./wire";

/**
 * What the worker calls to register a consent (docs/institutions/openbanking.md §1): the authorization URL a
 * person's browser is sent to, the callback's reading, the code exchange, the refresh and `user/me`. Every call
 * goes through an `InstitutionHttp` whose hosts are `openBankingHosts(environment)`, so stand-ins apply.
 */

/** The 이용기관's own keys, issued on KFTC's developer site (or a partner's, for its businesses only). Never in code. */
export interface OpenBankingKeys {
  clientId: string;
  clientSecret: string;
  /** 이용기관코드, 10 characters (`M202113854`): the prefix of every `bank_tran_id`. */
  clientUseCode: string;
}

/** A consent just granted or refreshed: the credential to seal, and the dates the worker warns and refreshes by. */
export interface OpenBankingGrant {
  credential: OpenBankingConsent;
  /** The refresh token's end: ten days after the access token's (O12, decoded tokens), unverified as a rule. */
  refreshableUntil: string;
  /** When the consent itself is believed to end (`consentDays` after it was given; O4 assumes one year). */
  consentExpiresAt: string;
}

export interface AuthorizationRequest {
  environment: OpenBankingEnvironment;
  clientId: string;
  /** The callback registered for the app on KFTC's developer site, byte for byte. */
  redirectUri: string;
  /** Bound to the registration session, checked once on the callback (`newState()`). */
  state: string;
  /** Space-separated; reading needs `login inquiry` (whether KFTC takes it without `transfer` is unverified). */
  scope?: string;
  /** `0` first consent; `2` skips KFTC's own verification for a user who consented before (needs headers, not sent here). */
  authType?: "0" | "2";
  /** Echoed on the callback. */
  clientInfo?: string;
  lang?: "kor" | "eng";
}

export const READ_SCOPE = "login inquiry";
const REFRESH_LIFETIME_MS = 10 * 86_400_000;
const DAY_MS = 86_400_000;

/** 32 characters, as every sample's `state` (O4, O5, O18). */
export function newState(): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  return Array.from(crypto.getRandomValues(new Uint8Array(32)), (b) => alphabet[b % alphabet.length]).join("");
}

/** `GET /oauth/2.0/authorize` with the parameters the sources show (O5, O9, O18); the person's browser opens it. */
export function authorizationUrl(request: AuthorizationRequest): string {
  const query = new URLSearchParams({
    response_type: "code",
    client_id: request.clientId,
    redirect_uri: request.redirectUri,
    scope: request.scope ?? READ_SCOPE,
    state: request.state,
    auth_type: request.authType ?? "0",
  });
  if (request.clientInfo !== undefined) query.set("client_info", request.clientInfo);
  if (request.lang) query.set("lang", request.lang);
  return `${apiOrigin(request.environment)}${PATHS.authorize}?${query}`;
}

export interface CallbackResult {
  code: string;
  scope: string | null;
  clientInfo: string | null;
}

/**
 * The callback's query (O4, O18): `code`, `scope`, `state`, `client_info` on consent; `error` and
 * `error_description` when the person refused (`access_denied`). A refusal, a missing code or a state that is
 * not the session's is LOGIN_FAILED: no consent was given to this session.
 */
export function readCallback(query: URLSearchParams, expectedState: string): CallbackResult {
  const state = query.get("state");
  if (!expectedState || state !== expectedState) throw new ProviderFailure("LOGIN_FAILED", "open banking callback: state is not the session's");
  const error = query.get("error") ?? (query.get("rsp_code") && query.get("rsp_code") !== "A0000" ? query.get("rsp_code") : null);
  if (error) throw new ProviderFailure("LOGIN_FAILED", `open banking consent refused: ${error} ${query.get("error_description") ?? query.get("rsp_message") ?? ""}`.trim());
  const code = query.get("code");
  if (!code) throw new ProviderFailure("LOGIN_FAILED", "open banking callback without code");
  return { code, scope: query.get("scope"), clientInfo: query.get("client_info") };
}

/** The 별첨4 detail in an `O0001` message (`인증 파라미터 오류([3000201])`). */
const detailCode = (answer: Json) => /\[(\d+)\]/.exec(String(answer.rsp_message ?? ""))?.[1] ?? "";
/** Our own keys or callback are wrong: the operators' problem, not the person's. */
const CONFIGURATION = new Set(["3000201", "3000114", "3000115", "3000116"]);

function grantOf(answer: Json, clientUseCode: string, now: number, consentDays: number, consentSince: number): OpenBankingGrant {
  const where = "token";
  const text = (name: string) => {
    const value = answer[name];
    if (typeof value !== "string" || !value) throw malformed(`${where}: no ${name}`);
    return value;
  };
  const expiresIn = Number(answer.expires_in);
  if (!Number.isFinite(expiresIn) || expiresIn <= 0) throw malformed(`${where}: no expires_in`);
  const expiresAt = now + expiresIn * 1000;
  return {
    credential: {
      authMethod: "OPEN_BANKING",
      accessToken: text("access_token"),
      refreshToken: text("refresh_token"),
      userSeqNo: text("user_seq_no"),
      expiresAt: new Date(expiresAt).toISOString(),
      scope: text("scope"),
      clientUseCode,
    },
    refreshableUntil: new Date(expiresAt + REFRESH_LIFETIME_MS).toISOString(),
    consentExpiresAt: new Date(consentSince + consentDays * DAY_MS).toISOString(),
  };
}

function tokenFailure(answer: Json, grant: "authorization_code" | "refresh_token"): ProviderFailure {
  const failure = failureOf(answer, `token (${grant})`, DEFAULT_OPTIONS.quotaRetryAfterSeconds);
  if (failure.code === "RATE_LIMITED") return failure;
  if (CONFIGURATION.has(detailCode(answer))) return new ProviderFailure("UNKNOWN", failure.message);
  // A used or expired code is a consent that did not complete; a refused refresh is a consent that ended.
  return new ProviderFailure(grant === "authorization_code" ? "LOGIN_FAILED" : "NO_VALID_CREDENTIAL", failure.message);
}

export interface ExchangeOptions {
  now?: () => number;
  consentDays?: number;
}

/** `POST /oauth/2.0/token`, grant_type=authorization_code (O4, O5, O17): at once, on the callback. */
export async function exchangeCode(http: InstitutionHttp, environment: OpenBankingEnvironment, keys: OpenBankingKeys, code: string, redirectUri: string, options: ExchangeOptions = {}): Promise<OpenBankingGrant> {
  const answer = await postForm(http, `${apiOrigin(environment)}${PATHS.token}`, {
    code,
    client_id: keys.clientId,
    client_secret: keys.clientSecret,
    redirect_uri: redirectUri,
    grant_type: "authorization_code",
  }, "token (authorization_code)");
  if (typeof answer.access_token !== "string") throw tokenFailure(answer, "authorization_code");
  const now = (options.now ?? Date.now)();
  return grantOf(answer, keys.clientUseCode, now, options.consentDays ?? DEFAULT_OPTIONS.consentDays, now);
}

/**
 * `POST /oauth/2.0/token`, grant_type=refresh_token (O4): a new access and refresh token; the old refresh token
 * must not be used again. `consentGivenAt` keeps the consent's own date across refreshes.
 */
export async function refreshConsent(http: InstitutionHttp, environment: OpenBankingEnvironment, keys: Pick<OpenBankingKeys, "clientId" | "clientSecret">, credential: OpenBankingConsent, consentGivenAt: string, options: ExchangeOptions = {}): Promise<OpenBankingGrant> {
  const answer = await postForm(http, `${apiOrigin(environment)}${PATHS.token}`, {
    client_id: keys.clientId,
    client_secret: keys.clientSecret,
    refresh_token: credential.refreshToken,
    scope: credential.scope,
    grant_type: "refresh_token",
  }, "token (refresh_token)");
  if (typeof answer.access_token !== "string") throw tokenFailure(answer, "refresh_token");
  const now = (options.now ?? Date.now)();
  return grantOf(answer, credential.clientUseCode, now, options.consentDays ?? DEFAULT_OPTIONS.consentDays, Date.parse(consentGivenAt) || now);
}

/** One account as `user/me` and `account/list` name it (O4, O5, O10, O20). */
export interface ConsentedAccount {
  fintechUseNum: string;
  bankCodeStd: string;
  bankName: string;
  accountNumMasked: string;
  accountAlias: string | null;
  /** KFTC's `account_type`: `1` 수시입출금, `2` 예적금, `6` 수익증권, `T` 종합계좌. */
  accountType: string | null;
  inquiryAgreed: boolean;
  /** `inquiry_agree_dtime`, YYYYMMDDhhmmss (KST), or null. */
  inquiryAgreedAt: string | null;
  accountState: string | null;
}

export function accountOf(row: unknown, where: string): ConsentedAccount {
  if (!row || typeof row !== "object") throw malformed(`${where}: res_list item is not an object`);
  const item = row as Json;
  const required = (name: string) => {
    const value = item[name];
    if (typeof value !== "string" || !value) throw malformed(`${where}: res_list item without ${name}`);
    return value;
  };
  return {
    fintechUseNum: required("fintech_use_num"),
    bankCodeStd: required("bank_code_std"),
    bankName: required("bank_name"),
    accountNumMasked: required("account_num_masked"),
    accountAlias: optionalField(item, "account_alias"),
    accountType: optionalField(item, "account_type"),
    inquiryAgreed: item.inquiry_agree_yn === "Y",
    inquiryAgreedAt: optionalField(item, "inquiry_agree_dtime"),
    accountState: optionalField(item, "account_state"),
  };
}

export function accountsOf(answer: Json, where: string): ConsentedAccount[] {
  const list = answer.res_list;
  if (!Array.isArray(list)) throw malformed(`${where}: no res_list`);
  if (String(answer.res_cnt ?? list.length) !== String(list.length)) throw malformed(`${where}: res_cnt ${String(answer.res_cnt)} but ${list.length} rows`);
  return list.map((row) => accountOf(row, where));
}

export interface UserMe {
  userSeqNo: string;
  userName: string | null;
  accounts: ConsentedAccount[];
}

/** `GET /v2.0/user/me?user_seq_no=` (O4, O5): who consented, and to which accounts. */
export async function userMe(http: InstitutionHttp, environment: OpenBankingEnvironment, credential: OpenBankingConsent): Promise<UserMe> {
  const url = `${apiOrigin(environment)}${PATHS.userMe}?${new URLSearchParams({ user_seq_no: credential.userSeqNo })}`;
  const answer = await getJson(http, url, credential.accessToken, "user/me");
  if (answer.rsp_code !== "A0000") throw failureOf(answer, "user/me", DEFAULT_OPTIONS.quotaRetryAfterSeconds);
  return { userSeqNo: String(answer.user_seq_no ?? credential.userSeqNo), userName: optionalField(answer, "user_name"), accounts: accountsOf(answer, "user/me") };
}
