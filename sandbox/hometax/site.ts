import { randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { readCertificateFile } from "../../contracts/certificates/certificate-file";
import { type IntegrityKeys, splitSuffix, suffixIsValid } from "../../collectors/hometax/integrity";
import type { SerialForm } from "../../collectors/hometax/signed-challenge";
import { base64Decode } from "../../contracts/base64url";
import { checkCertificateLogin, MESSAGES } from "../certificates/signed-login";
import { cookie } from "../http-kit";
import { type FrontDoorOptions, frontDoor } from "./front-door";
import { type HometaxMember, HOMETAX_MEMBERS, memberOf } from "./members";
import { failure, OK } from "./answers";
import { type DownloadOptions, downloadAnswer, downloadForm } from "./downloads";
import { tecrAnswer, teetAnswer } from "./lists";
import { type GatewayOptions, oacxGateway } from "./gateway";
import { type PhoneSettings, SandboxPhone } from "./phone";

export interface HometaxReplicaOptions extends FrontDoorOptions, DownloadOptions {
  /** Every request refused with 403, as an institution refusing foreign addresses might (no source shows Hometax's answer). */
  overseasBlocked?: boolean;
  /** The portal's service stop: every answer is its stop notice (S1). */
  stopped?: boolean;
  /** Accept only this serial form in `logSgnt`; unset, either (the real portal's rule is unknown). */
  serialForm?: SerialForm;
  /** Refuse `wqAction.do` bodies without the integrity suffix (the sources disagree on whether the portal does). */
  requireSuffix?: boolean;
  /** The `testVal` keys its page script serves; a test swaps them to play a changed script. */
  keys?: IntegrityKeys;
  /** The script served at common_te-min.js, replacing the keys', to play a portal that changed its script's shape. */
  script?: string;
  /** The 간편인증 gateway's failure switches (gateway.ts). */
  gateway?: GatewayOptions;
  /** How the sandbox phone answers (phone.ts): approve by itself after N polls, how long a request stands, the denial's codes. */
  phone?: PhoneSettings;
  /** `pubcLogin.do` refuses an approved 간편인증 token with `'code' : 'F'` (facts §11.7; its text is the replica's). */
  simpleAuthLoginRefused?: boolean;
}

/** The replica's own seven keys: the real ones rotate and are the portal's (S1, S2), not ours to copy. */
export const REPLICA_KEYS: IntegrityKeys = Array.from({ length: 7 }, (_, i) => `ReplicaKey${i}${"x".repeat(24)}Sandbox${i}`);

const COOKIE_DOMAIN = "Domain=.hometax.go.kr; Path=/";
const STOP_NOTICE = "요청하신 서비스는 현재 서비스 중지 시간 입니다.";
/** Texts the sources quote (docs/institutions/hometax.md, "Error answers"). */
const TEXTS = {
  notRegistered: "홈택스에 등록된 인증서가 아닙니다.",
  revoked: "폐지된 인증서입니다.",
  noSession: "세션정보가 존재하지 않습니다. 다시 로그인 해주세요.",
  badSuffix: "비정상적인 요청이 감지되었습니다.",
  throttled: "반복적인 호출은 시스템에 부하를 줄 수 있습니다.",
  // No source quotes these two; the replica's own wording.
  wrongPassword: "아이디 또는 비밀번호가 일치하지 않습니다.",
  wrongResident: "주민등록번호가 일치하지 않습니다.",
} as const;
const CHALLENGE_TTL_MS = 60_000;

interface PortalSession {
  member?: HometaxMember;
  challenge?: { value: string; at: number };
  /** Rotated ID-login values of R07, to the login they stand for. */
  idValues?: { id: string; pswd: string; loginId: string; password: string };
  secondFactorAsked?: boolean;
  /** `userCertClCd` of the login: 19 after 간편인증 (K1 §14); unset for the other ways in. */
  certClass?: string;
}

type Json = Record<string, unknown>;

const kstSecond = () => Math.floor(Date.now() / 1000) % 60;

function send(res: ServerResponse, status: number, body: string | Uint8Array, type: string, cookies: string[] = []): void {
  res.writeHead(status, { "Content-Type": type, "Cache-Control": "no-store", ...(cookies.length ? { "Set-Cookie": cookies } : {}) });
  res.end(body);
}
const sendJson = (res: ServerResponse, body: Json, cookies: string[] = []) => send(res, 200, JSON.stringify(body), "application/json; charset=UTF-8", cookies);

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).byteLength;
    if (size > 1024 * 1024) break;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}

function parseJson(text: string): Json | null {
  try {
    const value = JSON.parse(text) as unknown;
    return value && typeof value === "object" && !Array.isArray(value) ? (value as Json) : null;
  } catch {
    return null;
  }
}

/** The login answer script (S2 fixtures' exact shape). */
function loginCallback(fields: { code: "S" | "F"; errMsg?: string; lgnRsltCd?: string; pswdErrNbcnt?: string; tin?: string; sq2LgnCertYn?: string }): string {
  const quote = (v: string | undefined) => (v === undefined ? "null" : `'${v}'`);
  const errMsg = encodeURIComponent(fields.errMsg ?? "").replace(/%20/g, "+");
  return `nts_loginSystemCallback('TXPP', { 'code' : '${fields.code}', 'errCode' : null, 'errMsg' : decodeURIComponent('${errMsg}').replace(/\\+/g,' ').replace(/\\\\n/g,'\\n'), 'lgnRsltCd' : ${quote(fields.lgnRsltCd)}, 'pswdErrNbcnt' : ${quote(fields.pswdErrNbcnt ?? "0")}, 'tin' : ${quote(fields.tin)}, 'secCardId' : null, 'sq2LgnCertYn' : ${quote(fields.sq2LgnCertYn)}});`;
}

function sessionMap(member: HometaxMember, system: string, certClass?: string): Json {
  return {
    ...(certClass ? { userCertClCd: certClass } : {}),
    userId: member.userId,
    userNm: member.name,
    tin: member.tin,
    cnvrTin: member.tin,
    pubcUserNo: member.tin,
    txprDscmNo: member.businessNumber,
    tnmNm: member.name,
    lgnUserClCd: "01",
    userClsfCd: "02",
    txprClsfCd: "02",
    lgnCertCd: "01",
    mpbNo: "0",
    systemCode: system,
    // A login that is not plainly the business's (a personal tin, another registration): sheet A5's cases.
    ...member.session,
  };
}

const pemToBase64 = (pem: string) => pem.replace(/-----(BEGIN|END) CERTIFICATE-----/g, "").replace(/\s+/g, "");

/**
 * The Hometax replica: the portal (hometax.go.kr) and the tax-invoice (teet) and cash-receipt (tecr) sites under
 * /hometax/<real host>/, speaking the real protocol with the real field names (docs/institutions/hometax.md), over
 * the sandbox portal's ground truth (ground-truth.ts). Where no source shows an answer, the replica says so in a comment.
 */
export function hometaxReplica(options: HometaxReplicaOptions = {}) {
  const keys = options.keys ?? REPLICA_KEYS;
  const portalSessions = new Map<string, PortalSession>();
  const siteSessions = new Map<string, { member: HometaxMember; system: string; calls: number }>();
  const tokens = new Map<string, { member: HometaxMember; at: number }>();
  const expiredOnce = new Set<string>();
  const phone = new SandboxPhone(options.phone);
  const gateway = oacxGateway(phone, options.gateway);

  function newPortalSession(state: PortalSession): string {
    const id = `${randomBytes(24).toString("base64url")}.tupiwsp18_servlet_TXPP06`;
    portalSessions.set(id, state);
    return id;
  }

  async function checkSuffix(sent: string, userId: string): Promise<{ json: Json | null; refused: boolean }> {
    const { body, suffix } = splitSuffix(sent);
    if (suffix === null) return { json: parseJson(body), refused: options.requireSuffix === true };
    return { json: parseJson(body), refused: !(await suffixIsValid(keys, body, userId, suffix, kstSecond())) };
  }

  async function certificateLogin(form: URLSearchParams, session: PortalSession): Promise<string> {
    const parts = (Buffer.from(form.get("logSgnt") ?? "", "base64").toString("utf8")).split("$");
    const [challenge, serial, , signature] = parts;
    const issued = session.challenge;
    session.challenge = undefined;
    const certificate = pemToBase64(form.get("cert") ?? "");
    const der = base64Decode(certificate);
    const facts = der && readCertificateFile(der);
    // No source quotes the portal's refusal of a bad signature or a stale challenge; the replica's own words.
    const refuse = (message: string) => loginCallback({ code: "F", errMsg: message });
    if (parts.length !== 4 || !issued || issued.value !== challenge || Date.now() - issued.at > CHALLENGE_TTL_MS || !facts) return refuse("전자서명 검증에 실패하였습니다.");
    const forms: Record<SerialForm, string> = { bytes: facts.serialNumber, prefixed: `0${BigInt(`0x${facts.serialNumber}`).toString(16)}` };
    const accepted = options.serialForm ? [forms[options.serialForm]] : Object.values(forms);
    if (!accepted.includes(serial ?? "")) return refuse("전자서명 검증에 실패하였습니다.");
    const result = await checkCertificateLogin({ certificate, challenge: challenge!, signature: signature ?? "", randomNum: form.get("randomEnc") ?? "" }, { businessNumbers: HOMETAX_MEMBERS.map((m) => m.businessNumber), siteName: "홈택스" });
    if (!result.ok) return refuse(result.message === MESSAGES.revoked ? TEXTS.revoked : result.message.startsWith("등록되지 않은") ? TEXTS.notRegistered : result.message);
    session.member = memberOf(result.businessNumber);
    return loginCallback({ code: "S", lgnRsltCd: "01", tin: session.member!.tin, sq2LgnCertYn: "N" });
  }

  function idLogin(form: URLSearchParams, session: PortalSession): string {
    const decode = (v: string | null) => Buffer.from(v ?? "", "base64").toString("utf8");
    const values = session.idValues;
    if (!values || decode(form.get("id")) !== values.id || decode(form.get("pswd")) !== values.pswd) return loginCallback({ code: "F", errMsg: TEXTS.wrongPassword, pswdErrNbcnt: "1" });
    const found = HOMETAX_MEMBERS.find((m) => m.idLogin?.loginId === values.loginId);
    if (!found || found.idLogin!.password !== values.password) return loginCallback({ code: "F", errMsg: TEXTS.wrongPassword, pswdErrNbcnt: "1" });
    if (form.get("sq2LgnYn") !== "Y") {
      session.secondFactorAsked = true;
      return loginCallback({ code: "S", lgnRsltCd: "30", sq2LgnCertYn: "N" });
    }
    if (!session.secondFactorAsked || decode(form.get("txprDscmNo")) !== found.idLogin!.residentPrefix) return loginCallback({ code: "F", errMsg: TEXTS.wrongResident, pswdErrNbcnt: "1" });
    session.member = found;
    return loginCallback({ code: "S", lgnRsltCd: "01", tin: found.tin, sq2LgnCertYn: "N" });
  }

  /** The OACX form (K1, K2, K4): `reqTxId` carries the gateway's final token. */
  function simpleAuthLogin(form: URLSearchParams, session: PortalSession): string {
    const member = options.simpleAuthLoginRefused ? undefined : gateway.loginWith(form.get("reqTxId") ?? "");
    if (!member) return loginCallback({ code: "F", errMsg: "인증정보가 유효하지 않습니다. 다시 인증해 주시기 바랍니다." });
    session.member = member;
    session.certClass = "19";
    return loginCallback({ code: "S", lgnRsltCd: "01", tin: member.tin, sq2LgnCertYn: "N" });
  }

  async function portal(req: IncomingMessage, res: ServerResponse, path: string, url: URL): Promise<void> {
    const id = cookie(req, "TXPPsessionID");
    let session = id ? portalSessions.get(id) : undefined;
    if (req.method === "GET" && path === "/") {
      const fresh = newPortalSession({});
      return send(res, 200, `<!doctype html><html lang="ko"><head><script src="/js/comm/ui/common_te-min.js"></script></head><body>국세청 홈택스</body></html>`, "text/html; charset=UTF-8", [
        `WMONID=${randomBytes(8).toString("hex")}; ${COOKIE_DOMAIN}`,
        `TXPPsessionID=${fresh}; ${COOKIE_DOMAIN}`,
      ]);
    }
    if (req.method === "GET" && path === "/js/comm/ui/common_te-min.js") {
      return send(res, 200, options.script ?? `var nts_ui=nts_ui||{};var testVal=[${keys.map((k) => `"${k}"`).join(",")}];nts_ui.ready=true;`, "text/javascript; charset=UTF-8");
    }
    if (!session) session = portalSessions.get(newPortalSession({}))!;
    const sent = await readBody(req);
    const oacx = gateway.answer(req.method ?? "GET", path, sent);
    if (oacx) return send(res, oacx.status, oacx.body, oacx.type);
    if (path === "/wqAction.do") {
      const actionId = url.searchParams.get("actionId");
      const { json, refused } = await checkSuffix(sent, session.member?.userId ?? "");
      if (refused) return sendJson(res, failure(TEXTS.badSuffix));
      if (!json) return sendJson(res, failure("서비스 실행 중 오류가 발생하였습니다."));
      if (actionId === "ATXPPZXA001R01") {
        const value = randomBytes(32).toString("base64");
        session.challenge = { value, at: Date.now() };
        return sendJson(res, { pkcEncSsn: value, logSgnt: null, cert: null, randomEnc: null, resultMsg: OK });
      }
      if (actionId === "ATXPPABA001R07") {
        const loginId = Buffer.from(String(json.id ?? ""), "base64").toString("utf8").split(",").join("");
        const password = Buffer.from(String(json.pswd ?? ""), "base64").toString("utf8");
        session.idValues = { id: randomBytes(16).toString("hex"), pswd: randomBytes(32).toString("hex"), loginId, password };
        return sendJson(res, { id: session.idValues.id, pswd: session.idValues.pswd, pkcEncSsn: null, resultMsg: OK });
      }
      return sendJson(res, failure("권한이 없는 화면입니다."));
    }
    if (path === "/pubcLogin.do" && req.method === "POST") {
      const form = new URLSearchParams(sent);
      const answer = form.get("moisCertYn") === "Y" ? simpleAuthLogin(form, session) : form.has("logSgnt") ? await certificateLogin(form, session) : idLogin(form, session);
      // A login rotates the portal session cookie (S2, S4).
      const cookies = session.member ? [`TXPPsessionID=${newPortalSession(session)}; ${COOKIE_DOMAIN}`, `NTS_LOGIN_SYSTEM_CODE_P=TXPP; ${COOKIE_DOMAIN}`] : [];
      if (session.member && id) portalSessions.delete(id);
      return send(res, 200, answer, "text/javascript; charset=UTF-8", cookies);
    }
    if (path === "/permission.do") {
      if (url.searchParams.get("screenId") === "UTXPPABC12") return sendJson(res, { resultMsg: OK });
      return sendJson(res, { resultMsg: session.member ? { ...OK, sessionMap: sessionMap(session.member, "TXPP", session.certClass) } : OK });
    }
    if (path === "/token.do") {
      if (!session.member) return sendJson(res, { ssoToken: null, userClCd: null, txaaAdmNo: null });
      const token = randomBytes(24).toString("base64url");
      tokens.set(token, { member: session.member, at: Date.now() });
      return sendJson(res, { ssoToken: token, userClCd: "02", txaaAdmNo: "" });
    }
    return send(res, 404, "Not Found", "text/plain");
  }



  async function subSite(req: IncomingMessage, res: ServerResponse, system: "TEET" | "TECR", path: string, url: URL): Promise<void> {
    const cookieName = `${system}sessionID`;
    const id = cookie(req, cookieName);
    const sent = await readBody(req);
    if (path === "/permission.do") {
      const json = parseJson(sent) ?? {};
      const token = typeof json.ssoToken === "string" ? tokens.get(json.ssoToken) : undefined;
      if (token) tokens.delete(json.ssoToken as string);
      if (!token || Date.now() - token.at > CHALLENGE_TTL_MS) {
        const existing = id ? siteSessions.get(id) : undefined;
        return sendJson(res, { resultMsg: existing ? { ...OK, sessionMap: sessionMap(existing.member, system) } : OK });
      }
      const fresh = randomBytes(24).toString("base64url");
      siteSessions.set(fresh, { member: token.member, system, calls: 0 });
      return sendJson(res, { resultMsg: { ...OK, sessionMap: sessionMap(token.member, system) } }, [`${cookieName}=${fresh}; ${COOKIE_DOMAIN}`]);
    }
    if (path !== "/wqAction.do") return send(res, 404, "Not Found", "text/plain");
    const session = id ? siteSessions.get(id) : undefined;
    if (!session || session.system !== system) return sendJson(res, failure(TEXTS.noSession));
    const { member } = session;
    // A download form carries no JSON body, nor a suffix (S1).
    const download = downloadForm(sent);
    const { json, refused } = download ? { json: download.param, refused: false } : await checkSuffix(sent, member.userId);
    if (refused) return sendJson(res, failure(TEXTS.badSuffix));
    if (!json) return sendJson(res, failure("서비스 실행 중 오류가 발생하였습니다."));
    session.calls++;
    if (member.behaviour === "duplicate-login") return sendJson(res, { resultMsg: { ...failure("-9402").resultMsg, errorCd: "-9402" } });
    if (member.behaviour === "throttled") return sendJson(res, failure(TEXTS.throttled));
    // The first sub-site session of this member ends after its first answer, as a session the portal timed out would.
    if (member.behaviour === "session-expires" && session.calls > 1 && !expiredOnce.has(member.businessNumber)) {
      expiredOnce.add(member.businessNumber);
      siteSessions.delete(id!);
      return sendJson(res, failure(TEXTS.noSession));
    }
    if (download) {
      const file = downloadAnswer(system, download, member, options);
      // The real download's headers are not shown; a plain UTF-8 attachment here, Excel's own type for the workbook.
      if (file instanceof Uint8Array) return send(res, 200, file, "application/vnd.ms-excel");
      return typeof file === "string" ? send(res, 200, file, "text/plain; charset=UTF-8") : sendJson(res, file);
    }
    const actionId = url.searchParams.get("actionId");
    return sendJson(res, system === "TEET" ? teetAnswer(actionId, json, member) : tecrAnswer(actionId, json, member, options));
  }

  const door = frontDoor(options);
  const handler = async (req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> => {
    const [, , host = "", ...rest] = url.pathname.split("/");
    const path = `/${rest.join("/")}`;
    if (options.overseasBlocked) return send(res, 403, "<html><body>Forbidden</body></html>", "text/html");
    if (options.stopped) return send(res, 200, `<html><body>${STOP_NOTICE}</body></html>`, "text/html; charset=UTF-8");
    if (door(req, res, host, path, url)) return;
    // The same portal under both names (S1, S3 log in on www; S2 on the apex); its cookies are on .hometax.go.kr.
    if (host === "hometax.go.kr" || host === "www.hometax.go.kr") return portal(req, res, path, url);
    if (host === "teet.hometax.go.kr") return subSite(req, res, "TEET", path, url);
    if (host === "tecr.hometax.go.kr") return subSite(req, res, "TECR", path, url);
    return send(res, 404, "Not Found", "text/plain");
  };
  /** Ends every portal and sub-site session of the business's login, as the portal does at its idle end or a logout elsewhere. */
  function logOut(businessNumber: string): number {
    let ended = 0;
    for (const [id, session] of [...portalSessions]) if (session.member?.businessNumber === businessNumber && portalSessions.delete(id)) ended++;
    for (const [id, session] of [...siteSessions]) if (session.member.businessNumber === businessNumber && siteSessions.delete(id)) ended++;
    return ended;
  }
  // The sandbox phone is the server's too: its demo page and its control calls (phone-page.ts).
  return Object.assign(handler, { phone, logOut });
}
