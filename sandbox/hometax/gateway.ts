import { randomBytes } from "node:crypto";
import type { HometaxMember } from "./members";
import { memberOf } from "./members";
import type { SandboxPhone } from "./phone";
import { simpleAuthPerson } from "./simple-auth-people";

/** The gateway's failure switches (facts §11.11); unset, it answers as on a good day. */
export interface GatewayOptions {
  /** `trans` answers an HTML 403 Forbidden page (K5: service denied). */
  transForbidden?: boolean;
  /** `authen/request` answers the gateway's outage text (K5). */
  outage?: boolean;
  /** Take plain-text user fields besides base64 (facts §11.4: strict base64 by default; 2022's client sent plain, K2). */
  acceptPlainFields?: boolean;
  /** Providers listed with `status_code` n, as a withdrawn provider is (K6). */
  withdrawn?: readonly string[];
}

type Json = Record<string, unknown>;

/** Hometax's list of 2026-04 (K1 `docs/hometax-facts.md` §9): 13 entries, `nh_prod` without a version, NICE identity only. */
const PROVIDERS: readonly [id: string, providerId: string, name: string][] = [
  ["kakao_v1.5", "kakao", "카카오"],
  ["kakaobank_v1.5", "kakaobank", "카카오뱅크"],
  ["naver_v1.5", "naver", "네이버"],
  ["toss_v1.5", "toss", "토스"],
  ["banksalad_v1.5", "banksalad", "뱅크샐러드"],
  ["pass_v1.5", "pass", "통신사패스"],
  ["kica_v1.5", "kica", "삼성패스"],
  ["kb_v1.5", "kb", "KB은행"],
  ["nh_prod", "nh", "NH인증서"],
  ["hana_v1.5", "hana", "하나은행"],
  ["shinhan_v1.5", "shinhan", "신한인증서"],
  ["woori_v1.5", "woori", "우리인증서"],
  ["nice_v1.5", "nice", "나이스"],
];

/** OACX_NO_USER as each provider words it (K5); a provider K5 does not quote says Kakao's words. */
const NOT_A_USER = "선택하신 인증서비스에 등록된 사용자가 아닙니다.<br/>선택하신 인증서비스에 가입 후 사용해주시기 바랍니다.";
const NO_USER: Record<string, [clientMessage: string, systemMessage: string]> = {
  kakao: [NOT_A_USER, "본인 인증 정보를 찾을 수 없습니다."],
  pass: [NOT_A_USER, "PACPR"],
  kica: [NOT_A_USER, "CA서버로 부터 인증서 발급 내역이 없습니다.(602)"],
  naver: ["입력하신 정보와 일치하는 네이버 사용자를 찾을 수 없습니다.<br/>네이버에서 회원가입 및 인증서 (재)발급 후 재시도 부탁 드립니다.", "not_exist_user"],
  toss: ["입력하신 정보로 인증을 진행할 수 없습니다.\n사용자 정보(이름, 생년월일, 주민번호, 휴대폰번호 등)를 확인 후 다시 시도하세요.", "토스에 가입된 유저가 아닙니다."],
  shinhan: ["입력하신 내용과 일치하는 인증서가 없습니다. 신한SOL에서 인증서를 (재)발급하신 뒤에 다시 거래하시기 바랍니다.", ""],
  nh: ["NH모바일인증서를 발급하지 않으셨다면 NH스마트뱅킹에서 발급 후 이용해 주세요.", "Not Found Cust Info"],
};
const OUTAGE = "시스템 장애로 인하여 통신이 원활하지 않습니다.";
/** The final token's life before `pubcLogin.do` (facts §11.7 DECISION: single-use, 60 s). */
const FINAL_TOKEN_MS = 60_000;

const token = () => randomBytes(32).toString("base64url");
const success = (fields: Json) => ({ resultCode: "200", oacxCode: "OACX_SUCCESS", clientMessage: "성공", systemMessage: "성공", ...fields });

/** Strict base64 of UTF-8 text, or null (facts §11.4). */
function fromBase64(value: unknown): string | null {
  if (typeof value !== "string" || !/^[A-Za-z0-9+/]+={0,2}$/.test(value) || value.length % 4 !== 0) return null;
  const text = Buffer.from(value, "base64").toString("utf8");
  return Buffer.from(text, "utf8").toString("base64") === value ? text : null;
}

/**
 * Hometax's OACX gateway (facts §11.2-11.7) on the portal host: `trans`, `provider/list`, `authen/request`,
 * `authen/result`, the people of simple-auth-people.ts and the sandbox phone; the final tokens it issued are
 * consumed by the portal's `pubcLogin.do` (`loginWith`).
 */
export function oacxGateway(phone: SandboxPhone, options: GatewayOptions = {}) {
  /** `trans` transactions, by txId, to the token they stand at. */
  const transactions = new Map<string, string>();
  const finalTokens = new Map<string, { member: HometaxMember; at: number }>();

  const providerList = () =>
    PROVIDERS.map(([id, providerId, name]) => {
      const off = options.withdrawn?.includes(providerId);
      return { id, provider_id: providerId, name, providerName: name, provider_type: providerId === "nice" ? "iden" : "gov", oper_sort: "prod", status_code: off ? "n" : "y", unuse_style: off ? "hide" : "", version: "v1.5" };
    });

  function request(body: Json): Json {
    const txId = String(body.txId ?? "");
    // No source quotes a stale or foreign token's answer; the replica's own words.
    if (!transactions.has(txId) || transactions.get(txId) !== body.token) return { resultCode: "401", oacxCode: "OACX_INVALID_TOKEN", clientMessage: "유효하지 않은 토큰입니다." };
    const entry = providerList().find((p) => p.id === body.provider);
    if (!entry || entry.status_code !== "y") return { resultCode: "400", oacxCode: "OACX_INVALID_PROVIDER", clientMessage: "지원하지 않는 인증서비스입니다." };
    if (options.outage) return { resultCode: "500", oacxCode: "OACX_UNDEFINED", clientMessage: OUTAGE, systemMessage: "" };
    const user = (body.userInfo ?? {}) as Json;
    const field = (name: string) => fromBase64(user[name]) ?? (options.acceptPlainFields && typeof user[name] === "string" ? (user[name] as string) : "");
    const birthday = field("birthday");
    const telco = typeof user.telcoTycd === "string" ? user.telcoTycd : null;
    if (!/^\d{8}$/.test(birthday) || (entry.provider_id === "pass" && !["S", "K", "L"].includes(telco ?? ""))) {
      return { resultCode: "400", oacxCode: "OACX_BAD_REQUEST", clientMessage: "요청 Body 형식이 잘못되었습니다.", systemMessage: "" };
    }
    const person = simpleAuthPerson(entry.provider_id, field("name"), birthday, field("phone"), telco);
    if (!person) {
      const [clientMessage, systemMessage] = NO_USER[entry.provider_id] ?? [NOT_A_USER, ""];
      return { resultCode: "400", oacxCode: "OACX_NO_USER", clientMessage, systemMessage };
    }
    transactions.delete(txId);
    const rung = phone.ring({ token: token(), txId, provider: entry.provider_id, providerName: entry.name, person });
    // reqTxId equals the trans txId here, so a client may send either to authen/result (facts §11.6).
    return success({ token: rung.token, cxId: rung.cxId, reqTxId: txId, oacxStatus: "BEFORE_RESULT", provider: entry.provider_id });
  }

  function result(body: Json): Json {
    const rung = phone.get(String(body.cxId ?? ""));
    if (!rung || rung.token !== body.token || rung.txId !== body.txId) return { resultCode: "401", oacxCode: "OACX_INVALID_TOKEN", clientMessage: "유효하지 않은 토큰입니다." };
    phone.polled(rung);
    if (rung.state === "approved") {
      const member = memberOf(rung.person.businessNumber)!;
      const final = token();
      finalTokens.set(final, { member, at: Date.now() });
      return success({ oacxStatus: "AFTER_RESULT", token: final, cxId: rung.cxId, txId: rung.txId, reqTxId: rung.txId, signedData: "" });
    }
    if (rung.state === "denied") return { ...phone.settings.denial, clientMessage: "사용자가 인증을 취소하였습니다." };
    if (phone.lapsed(rung)) return { resultCode: "312", oacxCode: "OACX_TOKEN_EXPIRED", clientMessage: "토큰 유효 시간 만료" };
    return { resultCode: "402", oacxCode: "OACX_NOT_SIGNED", clientMessage: "인증이 완료되지 않았습니다. 휴대폰에서 인증 후 다시 시도해주세요.<br/>서명되지 않았습니다." };
  }

  return {
    /** An answer for `/oacx/...` on the portal host, or null for any other path. */
    answer(method: string, path: string, sent: string): { status: number; type: string; body: string } | null {
      const json = (body: unknown) => ({ status: 200, type: "application/json; charset=UTF-8", body: JSON.stringify(body) });
      if (path === "/oacx/index.jsp" || path === "/oacx/esign/config/config.auth.jsp") return { status: 200, type: "text/html; charset=UTF-8", body: "<!doctype html><html><body></body></html>" };
      if (!path.startsWith("/oacx/api/v1.0/")) return null;
      const step = path.slice("/oacx/api/v1.0/".length);
      if (step === "provider/list" && method === "GET") return json(providerList());
      if (method !== "POST") return { status: 405, type: "text/plain", body: "Method Not Allowed" };
      let body: Json = {};
      try {
        body = sent ? (JSON.parse(sent) as Json) : {};
      } catch {
        return json({ resultCode: "400", oacxCode: "OACX_BAD_REQUEST", clientMessage: "요청 Body 형식이 잘못되었습니다." });
      }
      if (step === "trans") {
        if (options.transForbidden) return { status: 403, type: "text/html", body: "<html><head><title>403 Forbidden</title></head><body><h1>403 Forbidden</h1></body></html>" };
        const txId = randomBytes(20).toString("hex");
        const first = token();
        transactions.set(txId, first);
        return json(success({ token: first, txId }));
      }
      if (step === "authen/request") return json(request(body));
      if (step === "authen/result") return json(result(body));
      return { status: 404, type: "text/plain", body: "Not Found" };
    },
    /** `pubcLogin.do` with `moisCertYn=Y`: the member an approved, fresh, unused final token stands for. */
    loginWith(finalToken: string): HometaxMember | undefined {
      const issued = finalTokens.get(finalToken);
      finalTokens.delete(finalToken);
      return issued && Date.now() - issued.at <= FINAL_TOKEN_MS ? issued.member : undefined;
    },
  };
}
