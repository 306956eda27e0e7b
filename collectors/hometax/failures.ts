import { type FailureRules, failureFromRules } from "../kit/failure-text";

/**
 * What the portal says when it refuses, as the public sources quote it (docs/institutions/hometax.md, "Error
 * answers"), first match wins; anything else is UNKNOWN with the portal's text in the operators' log only.
 * Throttles and blocks never get here: every answer is read for them first (throttle.ts, portal-client.ts).
 */
const RULES: FailureRules = [
  [/서비스 중지 시간/, "PROVIDER_TIME_WINDOW"],
  [/홈택스에 등록된 인증서가 아닙니다/, "CERT_NOT_REGISTERED_AT_PROVIDER"],
  [/폐지된 인증서/, "CERT_INVALID"],
  [/(^|\D)-940[2-5](\D|$)/, "DUPLICATE_LOGIN"],
  [/세션정보가 존재하지 않습니다|로그인이 되어있지 않|\[FWE\]/, "SESSION_EXPIRED"],
  [/6개월이상은 조회할 수 없습니다|ETICMZ0008/, "INVALID_DATE_RANGE"],
  // The request-integrity suffix was refused: the portal's script changed under the adapter.
  [/비정상적인 요청이 감지되었습니다/, "PROVIDER_RESPONSE_MALFORMED"],
  // The login's grade is too low for the menu (S2): a certificate is what it takes, so the credential is what to change.
  [/공인인증서로 로그인/, "LOGIN_FAILED"],
  // A screen refused to a session that logged in (S1, S2) says nothing about the credential: no source reads it as a
  // refused login, so it never marks one refused (invoice-download.ts reads the pages without the refused download).
  [/권한이 없는 화면|pubcPermission/, "PROVIDER_ERROR"],
];

export const hometaxFailure = failureFromRules(RULES);
