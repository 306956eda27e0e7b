import { type FailureRules, failureFromRules } from "../kit/failure-text";

// What the bank's notices and error lines say, in the order they are checked.
const RULES: FailureRules = [
  [/5회 연속 잘못 입력|이용이 제한/, "LOGIN_LOCKED"],
  [/시스템 (정기)?점검|점검시간/, "PROVIDER_TIME_WINDOW"],
  [/해외 IP/, "OVERSEAS_IP_BLOCKED"],
  [/중복 로그인/, "DUPLICATE_LOGIN"],
  [/이미 로그인 중/, "CONCURRENT_SESSION"],
  [/세션이 만료/, "SESSION_EXPIRED"],
  [/일치하지 않습니다/, "LOGIN_FAILED"],
  [/로그인 처리가 원활하지 않습니다/, "LOGIN_TRANSIENT"],
  [/조회 요청이 너무 많습니다/, "RATE_LIMITED"],
  [/지연되고 있습니다/, "PROVIDER_DELAYED"],
  [/조회기간은 최대|조회 가능 기간/, "INVALID_DATE_RANGE"],
  [/응답 시간이 초과/, "TIMEOUT"],
  [/시스템 오류/, "PROVIDER_ERROR"],
];

export const failureFromText = failureFromRules(RULES);

/** The pages of the bank's site the adapter knows; any other is SCRAPING_PARSER_NOT_FOUND (page-state.ts settle). */
export const BANK_PAGES = /^\/bank\/(login|accounts|transactions|notice)$/;
