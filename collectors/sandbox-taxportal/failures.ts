import { CERTIFICATE_LOGIN_RULES } from "../kit/certificate-form";
import { type FailureRules, failureFromRules } from "../kit/failure-text";

// What the portal's login and inquiry pages say, in the order they are checked.
const RULES: FailureRules = [
  [/시스템 점검/, "PROVIDER_TIME_WINDOW"],
  [/아이디 또는 비밀번호가 일치하지/, "LOGIN_FAILED"],
  [/주민등록번호 앞 7자리를 입력/, "LOGIN_SECOND_FACTOR_REQUIRED"],
  [/주민등록번호가 회원정보와 일치하지/, "LOGIN_CREDENTIALS_MISMATCH"],
  ...CERTIFICATE_LOGIN_RULES,
  [/세션이 만료/, "SESSION_EXPIRED"],
  [/조회기간은 최대|조회 가능 기간/, "INVALID_DATE_RANGE"],
];

export const failureFromText = failureFromRules(RULES);
