import type { JobErrorCode } from "../../contracts/job-failures";
import { ProviderFailure } from "../adapter";

/**
 * KFTC's answer codes mapped to the job failure catalog (docs/institutions/openbanking.md §7). `rsp_code` is the
 * API's; on `A0002` (참가기관 에러) the bank's own `bank_rsp_code` decides. A code no rule knows is UNKNOWN, KFTC's
 * message kept as the failure's detail, which reaches the operators' log only.
 */
const RSP_CODES: Readonly<Record<string, JobErrorCode>> = {
  // The token or the consent behind it is gone: the person must consent again.
  O0002: "NO_VALID_CREDENTIAL", // Access Token 거부
  O0003: "NO_VALID_CREDENTIAL", // Access Token 만료
  O0011: "NO_VALID_CREDENTIAL", // 허용되지 않은 Scope (the consent lacks inquiry)
  A0014: "NO_VALID_CREDENTIAL", // 탈퇴 회원
  A0019: "NO_VALID_CREDENTIAL", // 사용자탈퇴 처리중
  A0305: "NO_VALID_CREDENTIAL", // 제3자정보제공동의 미완료
  A0316: "NO_VALID_CREDENTIAL", // 제3자제공동의 만료
  A0332: "NO_VALID_CREDENTIAL", // 제3자 정보제공동의 사용자인증 미완료
  A0334: "NO_VALID_CREDENTIAL", // 제3자정보제공동의 만료
  A0337: "NO_VALID_CREDENTIAL", // 해당 사용자 없음
  // The account is no longer one this consent reads.
  A0304: "INVALID_ACCOUNT_FOR_SERVICE", // 핀테크이용번호 정보 불일치
  A0313: "INVALID_ACCOUNT_FOR_SERVICE", // 사용자 불일치
  A0314: "INVALID_ACCOUNT_FOR_SERVICE", // 계좌이동 중
  A0323: "INVALID_ACCOUNT_FOR_SERVICE", // 이용기관에 등록된 사용자 계좌 아님
  // Hours and load.
  A0020: "PROVIDER_TIME_WINDOW", // 조회 가능시간 아님
  O0008: "RATE_LIMITED", // Object plan 사용량 한도 초과
  O0009: "RATE_LIMITED", // API plan 사용량 한도 초과
  A0007: "TIMEOUT", // 처리시간 초과
  A0017: "PROVIDER_DELAYED", // 참가기관 응답전문 TIMEOUT
  A0003: "PROVIDER_ERROR", // 내부 처리 에러
  A0016: "PROVIDER_ERROR", // 내부 전문 송신 실패
};

const BANK_CODES: Readonly<Record<string, JobErrorCode>> = {
  "412": "INVALID_ACCOUNT_FOR_SERVICE", // 해당계좌 없음
  "414": "INVALID_ACCOUNT_FOR_SERVICE", // 이관계좌
  "415": "INVALID_ACCOUNT_FOR_SERVICE", // 해약계좌
  "416": "INVALID_ACCOUNT_FOR_SERVICE", // 잡좌
  "420": "INVALID_ACCOUNT_FOR_SERVICE", // 거래중지
  "467": "INVALID_ACCOUNT_FOR_SERVICE", // 장기미사용
  "468": "NO_VALID_CREDENTIAL", // 제3자정보제공(재)동의 만료
  "551": "NO_VALID_CREDENTIAL", // 기 해지 사용자
  "555": "NO_VALID_CREDENTIAL", // 해당 사용자 없음
  "556": "NO_VALID_CREDENTIAL", // 사용자 미등록
};

/** Codes a quota answer carries: the failure says when to come back. */
const QUOTA = new Set(["O0008", "O0009"]);

export interface KftcAnswerCodes {
  rsp_code?: unknown;
  rsp_message?: unknown;
  bank_rsp_code?: unknown;
  bank_rsp_message?: unknown;
}

const text = (value: unknown) => (typeof value === "string" ? value.trim() : "");

/** The failure an answer's codes stand for; `where` names the call for the operators' log. */
export function failureOf(answer: KftcAnswerCodes, where: string, quotaRetryAfterSeconds: number): ProviderFailure {
  const rsp = text(answer.rsp_code);
  const bank = text(answer.bank_rsp_code);
  const detail = `${where}: ${rsp} ${text(answer.rsp_message)}${bank && bank !== "000" ? ` [bank ${bank} ${text(answer.bank_rsp_message)}]` : ""}`.slice(0, 300);
  const code = (rsp === "A0002" ? BANK_CODES[bank] : undefined) ?? RSP_CODES[rsp] ?? "UNKNOWN";
  return new ProviderFailure(code, detail, QUOTA.has(rsp) ? quotaRetryAfterSeconds : undefined);
}

/** The catalog code of an answer, for tables and tests. */
export function failureCodeOf(rspCode: string, bankRspCode = ""): JobErrorCode {
  return failureOf({ rsp_code: rspCode, bank_rsp_code: bankRspCode }, "", 0).code;
}
