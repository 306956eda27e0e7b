import { type AdapterContext, type InstitutionHttp, type InstitutionResponse, type MobileCarrier, type PendingApproval, ProviderFailure, type SimpleAuthLogin, SIMPLE_AUTH_PROVIDERS } from "../adapter";
import { malformed } from "../kit/failure-text";
import { base64Encode } from "../../contracts/base64url";
import { postLoginForm } from "./certificate-login";
import { hometaxFailure } from "./failures";
import { PORTAL, WWW } from "./hosts";
import { passNetFunnel, releaseNetFunnelTicket } from "./netfunnel";
import type { HometaxOptions } from "./options";
import type { HometaxDeps } from "./pacing";
import { type Json, PortalClient } from "./portal-client";
import { loggedIn } from "./portal-session";
import type { HometaxSession } from "./session";
import { lapsed, oacxRefusal } from "./simple-auth-failures";

/** The gateway on the portal host (K1, K4; docs/institutions/hometax.md "간편인증 (OACX)"). */
const OACX = `${PORTAL}/oacx/api/v1.0`;
/** What K1 sends on every OACX call; K2 and K4 send the same content types and origin. Whether any is checked is unknown (K1, K2, K4). */
const OACX_HEADERS = {
  "Content-Type": "application/json; charset=UTF-8",
  Accept: "application/json; charset=utf-8",
  Origin: PORTAL,
  Referer: `${PORTAL}/oacx/index.jsp?popupType=layer&userType=R&ssn=&userName=`,
};
/** PASS's `telcoTycd`; a budget carrier's line goes by its host network's letter (K5, K6, K8). */
const CARRIER_CODES: Record<MobileCarrier, string> = { SKT: "S", KT: "K", LGU: "L" };
/** A gateway that never says "expired" still gets no more polls than this past the window (no source; the window is K5, K9, K11). */
const LAPSE_GRACE_MS = 30_000;

/** What `awaitApproval` goes on with: the request as sent and the gateway's handles, plain data (no personal data beyond the request's own fields). */
interface OacxState {
  /** The `authen/request` body without its token: the result polls send it again (K1, K4, K6, K7). */
  body: Json;
  /** The token of the `authen/request` answer, the one the polls carry (K1, K4, K6, K8, K9). */
  token: string;
  txId: string;
  cxId: string;
  reqTxId: string;
  providerId: string;
  providerName: string;
  /** The provider's NetFunnel queue, `simple_cert_<provider_id>` (K1). */
  aid: string;
  /** Epoch ms: when the request lapses. */
  until: number;
}

const isText = (value: unknown): value is string => typeof value === "string";

function readState(state: unknown): OacxState {
  const s = state as Partial<OacxState> | null;
  if (!s || typeof s !== "object" || !s.body || ![s.token, s.txId, s.cxId, s.reqTxId, s.providerId, s.providerName, s.aid].every(isText) || typeof s.until !== "number") {
    throw new ProviderFailure("INTERNAL_ERROR", "awaitApproval was handed a state requestApproval did not make");
  }
  return s as OacxState;
}

function validDate(yyyymmdd: string): boolean {
  if (!/^(19|20)\d{6}$/.test(yyyymmdd)) return false;
  const date = new Date(`${yyyymmdd.slice(0, 4)}-${yyyymmdd.slice(4, 6)}-${yyyymmdd.slice(6)}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10).replace(/-/g, "") === yyyymmdd;
}

/** The credential's own shape, checked before the phone can ring: a bad field would only make the gateway say OACX_NO_USER. */
function checkCredential(credential: SimpleAuthLogin): void {
  const problems = [
    !/^[가-힣A-Za-z][가-힣A-Za-z ]{0,28}[가-힣A-Za-z]$/.test(credential.name) && "name",
    !/^010\d{8}$/.test(credential.phone) && "phone",
    !validDate(credential.birthDate) && "birthDate",
    !SIMPLE_AUTH_PROVIDERS.includes(credential.provider) && "provider",
    credential.provider === "pass" && !(credential.carrier && credential.carrier in CARRIER_CODES) && "carrier",
  ].filter(Boolean);
  if (problems.length) throw new ProviderFailure("LOGIN_CREDENTIALS_MISMATCH", `the 간편인증 login's ${problems.join(", ")} cannot be sent`);
}

async function oacx(client: PortalClient, path: string, body?: Json): Promise<InstitutionResponse> {
  return client.request(`${OACX}/${path}`, body === undefined ? { headers: OACX_HEADERS } : { method: "POST", headers: OACX_HEADERS, body: JSON.stringify(body) });
}

function jsonOf(answer: InstitutionResponse): unknown {
  try {
    return JSON.parse(answer.text) as unknown;
  } catch {
    return undefined;
  }
}

/** `trans`: the gateway's first token and transaction (K1, K2, K4, K5, K6). A 403 page here is the gateway refusing service (K5). */
async function trans(client: PortalClient, options: HometaxOptions): Promise<{ token: string; txId: string }> {
  let answer: InstitutionResponse;
  try {
    answer = await oacx(client, "trans", { token: "" });
  } catch (err) {
    if (err instanceof ProviderFailure && err.code === "OVERSEAS_IP_BLOCKED") throw new ProviderFailure("PROVIDER_ERROR", `trans refused: ${err.message}`);
    throw err;
  }
  if (/>\s*403 Forbidden\s*</i.test(answer.text)) throw new ProviderFailure("PROVIDER_ERROR", "trans answered a 403 Forbidden page");
  const json = jsonOf(answer) as Json | undefined;
  if (!json || typeof json !== "object") throw malformed("trans answered without JSON");
  if (json.oacxCode !== "OACX_SUCCESS") throw oacxRefusal("trans", json, options);
  if (!isText(json.token) || !json.token || !isText(json.txId) || !json.txId) throw malformed("trans answered without token and txId");
  return { token: json.token, txId: json.txId };
}

/** The provider's entry of `provider/list`, matched on `provider_id`, its `id` what `authen/request` names (K1, K4, K5). */
async function providerEntry(client: PortalClient, credential: SimpleAuthLogin, options: HometaxOptions): Promise<{ id: string; providerId: string; name: string }> {
  const list = jsonOf(await oacx(client, "provider/list"));
  if (!Array.isArray(list)) throw malformed("provider/list answered without a list");
  const entry = (list as Json[]).find((e) => e && e.provider_id === credential.provider);
  // Withdrawn or absent at Hometax (a disabled entry is `status_code` n, K6): the login cannot go through this app.
  if (!entry || entry.status_code === "n" || !isText(entry.id)) throw new ProviderFailure("NO_VALID_CREDENTIAL", `provider/list offers no enabled ${credential.provider}`);
  const versioned = options.simpleAuthProdIds === "versioned" && entry.id.endsWith("_prod") && isText(entry.version);
  return { id: versioned ? `${credential.provider}_${entry.version}` : entry.id, providerId: credential.provider, name: isText(entry.name) ? entry.name : credential.provider };
}

/** The member body of `authen/request` as K1 and K4 send it on Hometax in 2026 (§3.3 of the facts). */
function requestBody(credential: SimpleAuthLogin, provider: string, txId: string, options: HometaxOptions): Json {
  const encode = (value: string) => (options.simpleAuthFields === "base64" ? base64Encode(new TextEncoder().encode(value)) : value);
  return {
    id: "",
    provider,
    txId,
    appInfo: { code: "", path: "", type: "" },
    userInfo: {
      isMember: false,
      name: encode(credential.name),
      phone: encode(credential.phone),
      phone1: encode(credential.phone.slice(0, 3)),
      phone2: encode(credential.phone.slice(3)),
      ssn1: "",
      ssn2: "",
      birthday: encode(credential.birthDate),
      privacy: 1,
      policy3: 0,
      policy4: 1,
      terms: 0,
      telcoTycd: credential.provider === "pass" && credential.carrier ? CARRIER_CODES[credential.carrier] : null,
      access_token: "",
      token_type: "",
      state: "",
      mtranskeySsn2: null,
    },
    deviceInfo: { code: "PC", browser: "WB", os: "", universalLink: false },
    contentInfo: { signTarget: "", signTargetTycd: "nonce", signType: "GOV_SIMPLE_AUTH", requestTitle: "", requestContents: "" },
    providerOptionInfo: { callbackUrl: "", reqCSPhoneNo: "1", upmuGb: "", isUseTss: "Y", isNotification: "Y", isPASSVerify: "Y", isUserAgreement: "Y" },
    compareCI: false,
  };
}

/** NetFunnel's `simple_cert_<provider>` queue around one gateway call (K1), the slot handed back after it. */
async function queued<T>(client: PortalClient, aid: string, call: () => Promise<T>): Promise<T> {
  const key = await passNetFunnel(client, aid);
  try {
    return await call();
  } finally {
    if (key) await releaseNetFunnelTicket(client, aid, key);
  }
}

/**
 * trans → provider/list → NetFunnel → authen/request (K1's order): the phone rings when this returns. Answers the
 * approval the job shows and the state the polls go on with.
 */
async function ask(client: PortalClient, credential: SimpleAuthLogin): Promise<PendingApproval & { state: OacxState }> {
  checkCredential(credential);
  const { options, deps } = client;
  // A portal session before any gateway call, as every client has one (K1, K2, K4).
  await client.request(`${PORTAL}/`);
  const first = await trans(client, options);
  const provider = await providerEntry(client, credential, options);
  const aid = `simple_cert_${provider.providerId}`;
  const body = requestBody(credential, provider.id, first.txId, options);
  const answer = await queued(client, aid, () => oacx(client, "authen/request", { ...body, token: first.token }));
  const json = jsonOf(answer) as Json | undefined;
  if (!json || typeof json !== "object") throw malformed("authen/request answered without JSON");
  if (json.oacxCode !== "OACX_SUCCESS" || !isText(json.cxId) || !json.cxId || !isText(json.token) || !json.token) throw oacxRefusal("authen/request", json, options);
  const since = deps.now();
  const until = since + options.simpleAuthWindowSeconds * 1000;
  const state: OacxState = {
    body,
    token: json.token,
    txId: first.txId,
    cxId: json.cxId,
    reqTxId: isText(json.reqTxId) && json.reqTxId ? json.reqTxId : first.txId,
    providerId: provider.providerId,
    providerName: provider.name,
    aid,
    until,
  };
  return { approval: { method: "SIMPLE_AUTH", provider: credential.provider, since: new Date(since).toISOString(), until: new Date(until).toISOString() }, state };
}

/** One `authen/result` poll: the final token once approved, null while not yet signed (402/408, `OACX_NOT_SIGNED`), a failure otherwise. */
async function poll(client: PortalClient, state: OacxState): Promise<string | null> {
  const { options } = client;
  const body = {
    ...state.body,
    token: state.token,
    txId: options.simpleAuthResultTxId === "trans" ? state.txId : state.reqTxId,
    ...(options.simpleAuthResultTxId === "reqTxId" ? { reqTxId: state.reqTxId } : {}),
    cxId: state.cxId,
    providerId: state.providerId,
    providerName: state.providerName,
    deeplinkUri: "",
    naverAppSchemeUrl: "",
    telcoTxid: "",
    mdlAppHash: "",
    useMdlSsn: false,
  };
  const call = () => oacx(client, "authen/result", body);
  const answer = options.simpleAuthNetFunnel === "every-call" ? await queued(client, state.aid, call) : await call();
  const json = jsonOf(answer) as Json | undefined;
  // K1 keeps waiting through an answer that is not JSON; the window bounds it.
  if (!json || typeof json !== "object" || Array.isArray(json)) return null;
  const success = json.oacxStatus === "AFTER_RESULT" || (json.oacxCode === "OACX_SUCCESS" && String(json.resultCode ?? "200") === "200");
  if (success && isText(json.token) && json.token) return json.token;
  if (json.oacxCode === "OACX_NOT_SIGNED" || json.resultCode === "402" || json.resultCode === "408") return null;
  throw oacxRefusal("authen/result", json, options);
}

/** The OACX login form of `pubcLogin.do` (K1, K2, K4): `reqTxId` carries the final token, not the request's reqTxId. */
const OACX_FORM = { moisCertYn: "Y", newGpinYn: "Y", ssoStatus: "", portalStatus: "", scrnId: "UTXPPABA01", userScrnRslnXcCnt: "1920", userScrnRslnYcCnt: "1080" };

/**
 * The approved token to a portal session: `pubcLogin.do`, then `permission.do?screenId=UTXPPABA01` (K2, K4), then
 * the certificate login's own steps. A refusal here comes after the phone approved, so it is never the person's
 * data: no source quotes one (facts §10.4/5), so the portal's stop and duplicate-login stay what they are and
 * anything else is PROVIDER_ERROR.
 */
async function finish(client: PortalClient, token: string, ctx: AdapterContext): Promise<HometaxSession> {
  const answer = await postLoginForm(client, { ...OACX_FORM, reqTxId: token });
  if (answer.code === "F") {
    const failure = hometaxFailure(answer.errMsg || "pubcLogin.do answered code F");
    throw failure.code === "PROVIDER_TIME_WINDOW" || failure.code === "DUPLICATE_LOGIN" ? failure : new ProviderFailure("PROVIDER_ERROR", `pubcLogin.do refused the approved login: ${failure.message}`);
  }
  await client.request(`${WWW}/permission.do?screenId=UTXPPABA01`, { method: "POST", headers: { "Content-Type": "application/xml; charset=UTF-8" }, body: "<map id='postParam'><popupYn>false</popupYn></map>" });
  return loggedIn(client, ctx);
}

/** Polls at `simpleAuthPollMs` for at most `waitMs`: the session once approved, null when the time is up first. */
async function waitFor(client: PortalClient, state: OacxState, waitMs: number, ctx: AdapterContext): Promise<HometaxSession | null> {
  const { deps, options } = client;
  const deadline = deps.now() + Math.max(0, waitMs);
  for (;;) {
    const token = await poll(client, state);
    if (token) return finish(client, token, ctx);
    const now = deps.now();
    if (now > state.until + LAPSE_GRACE_MS) throw lapsed(`authen/result still unsigned ${Math.round((now - state.until) / 1000)} s after the request lapsed`);
    if (now + options.simpleAuthPollMs > deadline) return null;
    await deps.sleep(options.simpleAuthPollMs);
  }
}

/** `requestApproval` of the adapter: the phone rings, the answer comes at once. */
export function requestSimpleAuth(http: InstitutionHttp, credential: SimpleAuthLogin, options: HometaxOptions, deps: HometaxDeps): Promise<PendingApproval> {
  return ask(new PortalClient(http, options, deps), credential);
}

/** `awaitApproval` of the adapter: the same cookies (in `http`), a pace of its own for this wait. */
export function awaitSimpleAuth(http: InstitutionHttp, pending: PendingApproval, waitMs: number, ctx: AdapterContext, options: HometaxOptions, deps: HometaxDeps): Promise<HometaxSession | null> {
  return waitFor(new PortalClient(http, options, deps), readState(pending.state), waitMs, ctx);
}

/** `login` with a 간편인증 credential: asks, then waits until the request lapses. */
export async function simpleAuthLogin(http: InstitutionHttp, credential: SimpleAuthLogin, ctx: AdapterContext, options: HometaxOptions, deps: HometaxDeps): Promise<HometaxSession> {
  const client = new PortalClient(http, options, deps);
  const { state } = await ask(client, credential);
  const session = await waitFor(client, state, state.until + LAPSE_GRACE_MS - deps.now(), ctx);
  if (!session) throw lapsed("the phone did not answer before the request lapsed");
  return session;
}
