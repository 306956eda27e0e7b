import type { JobErrorCode } from "../../contracts/job-failures";
import { ProviderFailure } from "../adapter";
import type { HometaxOptions } from "./options";
import type { Json } from "./portal-client";

/** The codes a 간편인증 login ends in (docs/institutions/hometax.md, "간편인증 (OACX)", "Failures"). */
export type SimpleAuthFailureCode = Extract<
  JobErrorCode,
  "LOGIN_CREDENTIALS_MISMATCH" | "LOGIN_FAILED" | "LOGIN_SECOND_FACTOR_REQUIRED" | "NO_VALID_CREDENTIAL" | "PROVIDER_ERROR" | "PROVIDER_TIME_WINDOW" | "RATE_LIMITED" | "UNKNOWN"
>;

/**
 * What the person does next after each failure, in Korean, for the worker and the holder's page to show beside the
 * catalog's message (which speaks of passwords and certificates, not of a phone).
 */
export const SIMPLE_AUTH_NEXT_STEPS: Readonly<Record<SimpleAuthFailureCode, string>> = {
  LOGIN_CREDENTIALS_MISMATCH: "선택한 간편인증 앱에 등록된 이름, 휴대폰 번호, 생년월일과 같은지 확인해 주세요. 그 앱에 가입하지 않았거나 인증서를 발급받지 않았다면 앱에서 먼저 발급받은 뒤 다시 요청해 주세요.",
  LOGIN_FAILED: "휴대폰 앱에서 인증이 거부되었거나 앱의 인증서를 쓸 수 없습니다. 다시 요청한 뒤 앱에서 승인하거나, 앱에서 인증서를 새로 발급받아 주세요.",
  LOGIN_SECOND_FACTOR_REQUIRED: "5분 안에 휴대폰 앱에서 승인하지 않아 인증 요청이 만료되었습니다. 다시 요청한 뒤 앱 알림을 열어 승인해 주세요.",
  NO_VALID_CREDENTIAL: "홈택스가 지금 이 간편인증 앱을 받지 않습니다. 다른 간편인증 앱으로 다시 등록해 주세요.",
  PROVIDER_ERROR: "홈택스 또는 간편인증 앱의 서버에 장애가 있습니다. 잠시 후 다시 요청해 주세요.",
  PROVIDER_TIME_WINDOW: "홈택스 점검 시간입니다. 점검이 끝난 뒤 다시 요청해 주세요.",
  RATE_LIMITED: "홈택스 간편인증 접속이 몰려 대기 시간이 길어졌습니다. 잠시 후 다시 요청해 주세요.",
  UNKNOWN: "홈택스 간편인증이 알 수 없는 답을 했습니다. 잠시 후 다시 요청하고, 계속되면 고객센터에 문의해 주세요.",
};

/**
 * The gateway's refusals by text, as K5 quotes them per provider (`clientMessage`/`systemMessage`), first match wins.
 * The person's data or app membership (K5, K6 "개인정보오류 + 해당 인증서에 가입되어 있지 않을때도"), the app's
 * certificate to re-issue (K6, 삼성패스 606), the portal's stop (HF-S1), and outages (K5).
 */
const TEXT_RULES: readonly (readonly [RegExp, SimpleAuthFailureCode])[] = [
  [/서비스 중지 시간/, "PROVIDER_TIME_WINDOW"],
  [
    /등록된 사용자가 아닙니다|사용자를 찾을 수 없습니다|일치하는 인증서가 없습니다|가입된 유저가 아닙니다|인증서를 발급하지 않으셨다면|앱이 설치되지 않았거나|앱이 설치되어 있지 않거나|지갑에 가입하지 않으셨다면|인증서 생성 후 시도|정보를 확인 후 다시 시도|값이 유효하지 않습니다|주민번호가 유효하지 않습니다/,
    "LOGIN_CREDENTIALS_MISMATCH",
  ],
  [/추가 인증이 필요한 인증서|인증서를 신규 발급/, "LOGIN_FAILED"],
  [/토큰 유효 시간 만료/, "LOGIN_SECOND_FACTOR_REQUIRED"],
  [/내부 서버 오류|서비스 관리자에게 문의|시스템 장애로 인하여/, "PROVIDER_ERROR"],
];

const text = (value: unknown) => (typeof value === "string" ? value : "");
/** The gateway's messages hold HTML (`<br/>`, `<p class=…>`, K5, K8): the detail keeps the words. */
const words = (value: string) => value.replace(/<[^>]*>/g, " ").replace(/\s+/g, " ").trim();

/** An OACX answer that is neither a success nor "not yet signed", as a catalog failure naming the gateway's answer. */
export function oacxRefusal(step: string, answer: Json, options: HometaxOptions): ProviderFailure {
  const resultCode = text(answer.resultCode);
  const oacxCode = text(answer.oacxCode);
  const message = words(`${text(answer.clientMessage)} ${text(answer.systemMessage)}`);
  const detail = `${step} answered ${resultCode || "-"} ${oacxCode || "-"}: ${message}`.slice(0, 240);
  const denied = options.simpleAuthDenied;
  let code: SimpleAuthFailureCode | undefined;
  if (oacxCode === "OACX_NO_USER") code = "LOGIN_CREDENTIALS_MISMATCH";
  else if (denied.oacxCodes.includes(oacxCode) || denied.resultCodes.includes(resultCode)) code = "LOGIN_FAILED";
  else if (oacxCode === "OACX_TOKEN_EXPIRED") code = "LOGIN_SECOND_FACTOR_REQUIRED";
  else code = TEXT_RULES.find(([pattern]) => pattern.test(message))?.[1] ?? "UNKNOWN";
  return new ProviderFailure(code, detail);
}

/** The request lapsed with no answer from the phone: the same failure as the gateway's own expiry. */
export function lapsed(detail: string): ProviderFailure {
  return new ProviderFailure("LOGIN_SECOND_FACTOR_REQUIRED", detail);
}
