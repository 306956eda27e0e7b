import { CERTIFICATE_LOGIN_RULES } from "../kit/certificate-form";
import { type FailureRules, failureFromRules } from "../kit/failure-text";

// What the issuer's notices, guide pages and error lines say, in the order they are checked.
const RULES: FailureRules = [
  [/이용이 정지/, "LOGIN_LOCKED"],
  [/시스템 (정기)?점검|점검시간/, "PROVIDER_TIME_WINDOW"],
  // A security program the service cannot install, demanded by the customer's own access-environment setting
  // (docs/sandbox-institutions.md): the credential is right, the user's setting blocks, as with an overseas IP block.
  [/접속 환경 보안|보안프로그램을 설치하고/, "OVERSEAS_IP_BLOCKED"],
  [/비밀번호 유효기간/, "LOGIN_FAILED"],
  [/아이디 또는 비밀번호가 일치하지/, "LOGIN_FAILED"],
  // After the password's expiry: its notice says "유효기간이 만료" too, and it is not the certificate's.
  ...CERTIFICATE_LOGIN_RULES,
  [/로그인 시간이 만료|세션이 만료/, "SESSION_EXPIRED"],
  [/조회기간은 최대|조회 가능 기간/, "INVALID_DATE_RANGE"],
];

export const failureFromText = failureFromRules(RULES);
