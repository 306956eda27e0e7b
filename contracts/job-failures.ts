/**
 * The job failure catalog of the spec (33 codes). A job that ends `Failed`
 * carries one of these in its `error` object; anything else becomes UNKNOWN.
 */
export const JOB_ERROR_CATEGORIES = [
  "CREDENTIAL",
  "USER_ENVIRONMENT",
  "INVALID_INPUT",
  "CREDENTIAL_MISSING",
  "TRANSIENT",
  "OTHER",
] as const;
export type JobErrorCategory = (typeof JOB_ERROR_CATEGORIES)[number];

interface FailureEntry {
  category: JobErrorCategory;
  message: string;
}

// Messages are shown to end-users as-is, so each one names the next action.
const FAILURES = {
  LOGIN_FAILED: { category: "CREDENTIAL", message: "기관 로그인에 실패했습니다. 아이디, 비밀번호 또는 인증서를 확인한 뒤 자격 증명을 다시 등록해 주세요." },
  LOGIN_CREDENTIALS_MISMATCH: { category: "CREDENTIAL", message: "아이디, 비밀번호 또는 주민등록번호가 일치하지 않습니다. 정보를 확인한 뒤 자격 증명을 수정해 주세요." },
  LOGIN_SECOND_FACTOR_REQUIRED: { category: "CREDENTIAL", message: "아이디 로그인에 필요한 추가 인증 정보(주민등록번호 앞 7자리)가 없습니다. 자격 증명에 추가해 주세요." },
  LOGIN_LOCKED: { category: "CREDENTIAL", message: "비밀번호 오류가 반복되어 기관 계정이 잠겼습니다. 기관에서 잠금을 해제한 뒤 다시 시도해 주세요." },
  NO_VALID_CREDENTIAL: { category: "CREDENTIAL", message: "유효한 자격 증명이 없습니다. 자격 증명을 다시 등록해 주세요." },
  CERT_INVALID: { category: "CREDENTIAL", message: "인증서가 폐기되었거나 등록되지 않았거나 서명에 실패했습니다. 유효한 인증서로 다시 등록해 주세요." },
  BUSINESS_NUMBER_MISMATCH: { category: "CREDENTIAL", message: "등록된 사업자등록번호가 기관 계정의 사업자등록번호와 다릅니다. 올바른 계정으로 다시 등록해 주세요." },
  OVERSEAS_IP_BLOCKED: { category: "USER_ENVIRONMENT", message: "기관이 해외 IP 접속을 차단하고 있습니다. 기관 설정에서 해외 IP 차단을 해제한 뒤 다시 시도해 주세요." },
  CERT_NOT_REGISTERED_AT_PROVIDER: { category: "USER_ENVIRONMENT", message: "인증서가 해당 기관에 등록되어 있지 않습니다. 기관 사이트에서 인증서를 등록한 뒤 다시 시도해 주세요." },
  INVALID_ACCOUNT_FOR_SERVICE: { category: "INVALID_INPUT", message: "이 작업에 사용할 수 없는 계좌입니다. 계좌번호를 확인해 주세요." },
  INVALID_CARD_FOR_SERVICE: { category: "INVALID_INPUT", message: "카드 번호를 확인할 수 없습니다. 카드 번호를 확인해 주세요." },
  INVALID_DATE_RANGE: { category: "INVALID_INPUT", message: "기관에서 조회할 수 없는 기간입니다. 조회 기간을 줄여 다시 요청해 주세요." },
  NO_DATA_AVAILABLE: { category: "INVALID_INPUT", message: "수집할 수 있는 데이터가 없습니다. 조회 조건을 확인해 주세요." },
  CREDENTIAL_NOT_FOUND: { category: "CREDENTIAL_MISSING", message: "이 기관에 등록된 자격 증명이 없거나 삭제되었습니다. 자격 증명을 다시 등록해 주세요." },
  RATE_LIMITED: { category: "TRANSIENT", message: "기관이 요청을 제한하고 있습니다. 잠시 후 다시 시도해 주세요." },
  TIMEOUT: { category: "TRANSIENT", message: "기관 응답 시간이 초과되었습니다. 잠시 후 다시 시도해 주세요." },
  LOCK_CONTENTION: { category: "TRANSIENT", message: "같은 자격 증명으로 다른 작업이 진행 중입니다. 2분 후 다시 시도해 주세요." },
  LOCK_LEASE_LOST: { category: "TRANSIENT", message: "작업 실행 권한이 만료되었습니다. 잠시 후 다시 시도해 주세요." },
  DUPLICATE_LOGIN: { category: "TRANSIENT", message: "중복 로그인이 감지되었습니다. 잠시 후 다시 시도해 주세요." },
  SESSION_EXPIRED: { category: "TRANSIENT", message: "기관 세션이 만료되었습니다. 잠시 후 다시 시도해 주세요." },
  LOGIN_TRANSIENT: { category: "TRANSIENT", message: "기관 로그인 중 일시적인 오류가 발생했습니다. 잠시 후 다시 시도해 주세요." },
  PROVIDER_DELAYED: { category: "TRANSIENT", message: "기관 응답이 지연되고 있습니다. 잠시 후 다시 시도해 주세요." },
  PROVIDER_TIME_WINDOW: { category: "TRANSIENT", message: "기관 점검 또는 이용 불가 시간입니다. 점검 시간이 끝난 뒤 다시 시도해 주세요." },
  CONCURRENT_SESSION: { category: "TRANSIENT", message: "같은 계정이 다른 곳에서 로그인되어 있습니다. 다른 세션을 종료한 뒤 다시 시도해 주세요." },
  ENGINE_CONCURRENCY_LIMIT: { category: "TRANSIENT", message: "수집 엔진이 혼잡합니다. 잠시 후 다시 시도해 주세요." },
  PROVIDER_RESPONSE_MALFORMED: { category: "TRANSIENT", message: "기관 응답을 해석할 수 없습니다. 잠시 후 다시 시도해 주세요." },
  PROVIDER_ERROR: { category: "TRANSIENT", message: "기관에서 오류가 발생했습니다. 잠시 후 다시 시도해 주세요." },
  ENGINE_CRASHED: { category: "TRANSIENT", message: "수집 엔진이 비정상 종료되었습니다. 잠시 후 다시 시도해 주세요." },
  JOB_TIMEOUT: { category: "TRANSIENT", message: "작업이 제한 시간 안에 끝나지 않았습니다. 조회 기간을 줄여 다시 요청해 주세요." },
  PENDING_ORPHAN: { category: "TRANSIENT", message: "작업이 시작되지 못하고 만료되었습니다. 같은 요청을 다시 보내 주세요." },
  INTERNAL_ERROR: { category: "TRANSIENT", message: "내부 오류가 발생했습니다. 잠시 후 다시 시도해 주세요." },
  WORKSPACE_QUOTA_EXCEEDED: { category: "OTHER", message: "무료 플랜의 월간 작업 한도에 도달했습니다. 플랜을 변경하거나 다음 달에 다시 시도해 주세요." },
  UNKNOWN: { category: "OTHER", message: "분류되지 않은 오류가 발생했습니다. 문제가 계속되면 고객센터에 문의해 주세요." },
} as const satisfies Record<string, FailureEntry>;

export type JobErrorCode = keyof typeof FAILURES;
export const JOB_ERROR_CODES = Object.keys(FAILURES) as [JobErrorCode, ...JobErrorCode[]];

export const LOCK_CONTENTION_RETRY_SECONDS = 120;

export interface JobError {
  category: JobErrorCategory;
  code: JobErrorCode;
  message: string;
  retryable: boolean;
  retryAfterSeconds?: number | null;
}

export function isJobErrorCode(code: string): code is JobErrorCode {
  return Object.hasOwn(FAILURES, code);
}

/** Builds the spec's error object; an unmapped code is reported as UNKNOWN. */
export function jobError(code: string, retryAfterSeconds?: number | null): JobError {
  const known: JobErrorCode = isJobErrorCode(code) ? code : "UNKNOWN";
  const entry: FailureEntry = FAILURES[known];
  const error: JobError = {
    category: entry.category,
    code: known,
    message: entry.message,
    retryable: entry.category === "TRANSIENT",
  };
  const wait = known === "LOCK_CONTENTION" ? LOCK_CONTENTION_RETRY_SECONDS : retryAfterSeconds;
  if (wait !== undefined) error.retryAfterSeconds = wait;
  return error;
}
