/**
 * Every HTTP error code of the spec, with its status and Korean message.
 * Handlers throw `new ApiError(code)`; nothing else decides a status or a
 * text. The catalog mirrors the whole spec, so it also holds codes of
 * features not built yet (billing, plans, admin): a code here is not a
 * promise that some route answers it; each route's OpenAPI entry lists
 * the codes it really does. Five codes are ours (docs/api-design.md): for the
 * device grant the spec leaves unshown, DEVICE_AUTHORIZATION_PENDING,
 * DEVICE_SLOW_DOWN and DEVICE_ACCESS_DENIED, RFC 8628's authorization_pending,
 * slow_down and access_denied; for results kept only so long (docs/retention.md),
 * DATA_JOB_RESULTS_DELETED and DATA_JOB_NOT_FINISHED.
 */
const CATALOG = {
  400: {
    ACTION_NOT_SUPPORTED: "이 기관은 요청한 스키마를 지원하지 않습니다. GET /api/v1/providers/{code}에서 지원 스키마를 확인해 주세요.",
    ALREADY_FREE_NO_OP: "이미 무료 플랜입니다. 해지할 유료 플랜이 없습니다.",
    API_KEY_ALREADY_REVOKED: "이미 폐기된 API 키입니다.",
    CONNECTION_AND_CREDENTIAL_ID_EXCLUSIVE: "connectionId와 credentialId는 함께 보낼 수 없습니다. 하나만 보내 주세요.",
    CONNECTION_NOT_ALLOWED_FOR_NON_PARTNER: "파트너 워크스페이스만 connectionId를 사용할 수 있습니다.",
    CONNECTION_REQUIRED_FOR_PARTNER: "파트너 워크스페이스는 어느 사업자의 작업인지 connectionId(또는 X-SVC-Business 헤더)로 알려 주세요.",
    CREDENTIAL_ID_NOT_ALLOWED: "파트너는 사업자를 고르지 않고 credentialId만 보낼 수 없습니다. connectionId로 사업자를 골라 주세요(사업자의 기본 자격 증명을 씁니다).",
    CREDENTIAL_ID_NOT_ALLOWED_FOR_NON_PARTNER: "파트너 워크스페이스가 아니면 credentialId를 지정할 수 없습니다.",
    CREDENTIAL_RECOVERY_VALIDATION_FAILED: "자격 증명 복구 정보 검증에 실패했습니다. 입력값을 확인해 주세요.",
    DATE_RANGE_EXCEEDED: "조회 기간이 기관의 최대 조회 기간을 넘었습니다. 더 짧은 기간으로 나누어 요청해 주세요.",
    DATE_RANGE_INVALID: "조회 시작일이 종료일보다 늦습니다. 기간을 확인해 주세요.",
    DELIVERY_ROUTE_NOT_FOUND: "전달 경로를 찾을 수 없습니다.",
    DEVICE_ACCESS_DENIED: "사용자가 이 명령줄 로그인을 거부했거나, 승인한 사용자가 워크스페이스에 더 이상 속하지 않습니다. 다시 로그인해 주세요.",
    DEVICE_CODE_EXPIRED: "디바이스 코드가 만료되었습니다. 다시 로그인해 주세요.",
    DEVICE_AUTHORIZATION_PENDING: "아직 승인되지 않았습니다. interval초 뒤에 다시 폴링해 주세요.",
    DEVICE_CODE_INVALID: "디바이스 코드가 올바르지 않습니다.",
    DEVICE_SLOW_DOWN: "폴링이 너무 잦습니다. 폴링 간격을 5초 늘려 주세요.",
    INVALID_BUSINESS_REGISTRATION_NUMBER: "사업자등록번호 형식이 올바르지 않습니다. 숫자 10자리를 보내 주세요.",
    INVALID_CREDENTIAL_FORMAT: "자격 증명 값의 형식이 올바르지 않습니다. 기관의 credential-schema 패턴을 확인해 주세요.",
    INVALID_CURSOR: "cursor 값이 올바르지 않습니다. 이전 응답의 nextCursor를 그대로 보내 주세요.",
    INVALID_DATA_JOB_PARAMS: "작업 params가 스키마 정의와 맞지 않습니다. GET /api/v1/schemas/{schema}에서 정의를 확인해 주세요.",
    INVALID_PARAM_FORMAT: "요청 값의 형식이 올바르지 않습니다. fieldErrors에서 값마다 기대하는 형식을 확인해 주세요.",
    INVALID_PROVIDER_CODE: "알 수 없는 기관 코드입니다. GET /api/v1/providers에서 사용 가능한 코드를 확인해 주세요.",
    INVALID_USAGE_CREDIT: "사용 크레딧 값이 올바르지 않습니다.",
    MALFORMED_REQUEST: "요청을 해석할 수 없습니다. 요청 본문과 헤더를 확인해 주세요.",
    MISSING_CREDENTIAL_FIELD: "자격 증명의 필수 항목이 빠졌습니다.",
    MISSING_PARAMETER: "필수 값이 빠졌습니다.",
    MISSING_REQUIRED_PARAM: "필수 값이 빠졌습니다. 어느 값인지는 fieldErrors에 있습니다. 작업의 params는 GET /api/v1/schemas/{schema}에서 정의를 확인해 주세요.",
    NO_PENDING_PLAN_CHANGE: "예약된 플랜 변경이 없습니다.",
    PARTNER_BUSINESS_SELECTOR_REQUIRED: "파트너 요청에는 X-SVC-Business 헤더에 사업자등록번호가 필요합니다.",
    PARTNER_NAME_INVALID: "파트너 이름이 올바르지 않습니다.",
    PARTNER_WEBHOOK_URL_INVALID: "웹훅 URL이 올바르지 않습니다. https URL을 보내 주세요.",
    PAYMENT_METHOD_REQUIRED: "결제 수단이 필요합니다. 결제 수단을 등록해 주세요.",
    PERSONAL_EMAIL_NOT_ALLOWED: "회사 이메일로 가입해 주세요. 개인 이메일은 사용할 수 없습니다.",
    PROVIDER_CODE_MISMATCH: "credentialId의 자격 증명은 다른 기관의 것입니다. providerCode와 같은 기관의 자격 증명을 골라 주세요.",
    PROVIDER_CODE_REQUIRED_FOR_GLOBAL_CERT: "공동인증서 등록에는 기관 코드가 필요합니다.",
    PROVIDER_DOES_NOT_ACCEPT_CERT_LOGIN: "이 기관은 인증서 로그인을 지원하지 않습니다. 아이디 로그인을 사용해 주세요.",
    REGISTRATION_E2E_DECRYPT_FAILED: "암호화된 자격 증명을 복호화하지 못했습니다. 등록 화면을 새로 고친 뒤 다시 시도해 주세요.",
    REGISTRATION_E2E_UNKNOWN_KEY_ID: "알 수 없는 암호화 키입니다. 등록 화면을 새로 고친 뒤 다시 시도해 주세요.",
    REGISTRATION_SESSION_INVALID_CLIENT_REFERENCE_ID: "clientReferenceId는 128자 이하의 문자열이어야 합니다.",
    REGISTRATION_SESSION_INVALID_ORIGIN: "originAllowlist의 각 값은 scheme://host[:port] 형식이어야 합니다.",
    REGISTRATION_SESSION_INVALID_REGISTRATION_OPTIONS: "registrationOptions가 올바르지 않습니다. CERTIFICATE에는 providerCode를 빼고, PROVIDER_LOGIN에는 providerCode를 넣어 주세요.",
    SAME_PLAN_CHANGE: "현재 플랜과 같은 플랜으로는 변경할 수 없습니다.",
    SUBSCRIPTION_NOT_PAST_DUE: "연체 상태의 구독이 아닙니다.",
    UNSUPPORTED_AUTH_METHOD: "이 기관이 지원하지 않는 인증 방식입니다. GET /api/v1/providers/{code}의 acceptedAuthMethods를 확인해 주세요.",
    USAGE_CREDIT_EXPIRES_IN_PAST: "사용 크레딧 만료일이 과거입니다.",
    USAGE_CREDIT_NOT_APPLICABLE: "이 사용 크레딧은 적용할 수 없습니다.",
  },
  401: {
    INVALID_CREDENTIALS: "이메일 또는 비밀번호가 올바르지 않습니다.",
    INVALID_TOKEN: "API 키가 없거나 올바르지 않습니다. Authorization: Bearer <API_KEY> 헤더를 확인해 주세요.",
    REGISTRATION_SESSION_TOKEN_INVALID: "등록 세션 토큰이 올바르지 않습니다. 새 세션을 발급받아 주세요.",
    TOKEN_EXPIRED: "API 키가 만료되었습니다. 콘솔에서 새 키를 발급받아 주세요.",
    WEBHOOK_SIGNATURE_INVALID: "웹훅 서명이 올바르지 않습니다.",
  },
  402: {
    CARD_DECLINED: "카드 결제가 거절되었습니다. 다른 결제 수단을 사용해 주세요.",
    CARD_LIMIT_EXCEEDED: "카드 한도를 초과했습니다.",
    INSUFFICIENT_FUNDS: "잔액이 부족합니다.",
    MERCHANT_LIMIT_EXCEEDED: "가맹점 한도를 초과했습니다.",
    PAYMENT_FAILED: "결제에 실패했습니다. 잠시 후 다시 시도해 주세요.",
    SUBSCRIPTION_PAST_DUE: "구독 요금이 연체되었습니다. 결제 수단을 확인해 주세요.",
  },
  403: {
    ADMIN_ACTION_FORBIDDEN: "이 관리 작업을 수행할 권한이 없습니다.",
    ADMIN_FORBIDDEN: "관리자 권한이 필요합니다.",
    INTERNAL_PLAN_NOT_MUTABLE: "내부 플랜은 변경할 수 없습니다.",
    INTERNAL_PLAN_NOT_PURCHASABLE: "내부 플랜은 구매할 수 없습니다.",
    REGISTRATION_SESSION_BUSINESS_MISMATCH: "세션 발급 시 지정된 사업자등록번호와 다릅니다.",
    REGISTRATION_SESSION_OPTION_NOT_ALLOWED: "세션 발급 시 허용되지 않은 등록 방식 또는 기관입니다.",
    WORKSPACE_ACCESS_DENIED: "이 워크스페이스에 접근할 권한이 없습니다.",
  },
  404: {
    ACCOUNT_NOT_FOUND: "계정을 찾을 수 없습니다.",
    ACTION_NOT_FOUND: "작업 유형을 찾을 수 없습니다.",
    AGENT_BUG_REPORT_NOT_FOUND: "버그 리포트를 찾을 수 없습니다.",
    API_KEY_NOT_FOUND: "API 키를 찾을 수 없습니다.",
    CONNECTION_NOT_FOUND: "연결을 찾을 수 없습니다.",
    CREDENTIAL_NOT_FOUND: "자격 증명을 찾을 수 없습니다.",
    DATA_JOB_NOT_FOUND: "수집 작업을 찾을 수 없습니다. 작업 id를 확인해 주세요.",
    INVOICE_NOT_FOUND: "청구서를 찾을 수 없습니다.",
    PARTNER_NOT_FOUND: "파트너를 찾을 수 없습니다.",
    PAYMENT_METHOD_NOT_FOUND: "결제 수단을 찾을 수 없습니다.",
    REGISTRATION_SESSION_NOT_FOUND: "등록 세션을 찾을 수 없습니다.",
    RESOURCE_NOT_FOUND: "요청한 경로를 찾을 수 없습니다. API 문서(/api/v1/docs)를 확인해 주세요.",
    SCHEMA_NOT_FOUND: "알 수 없는 스키마입니다. GET /api/v1/schemas에서 사용 가능한 스키마를 확인해 주세요.",
    SUBSCRIPTION_NOT_FOUND: "구독을 찾을 수 없습니다.",
    USER_CODE_INVALID: "사용자 코드가 올바르지 않습니다.",
    WORKSPACE_MEMBER_NOT_FOUND: "워크스페이스 구성원을 찾을 수 없습니다.",
    WORKSPACE_NOT_FOUND: "워크스페이스를 찾을 수 없습니다.",
  },
  405: {
    METHOD_NOT_ALLOWED: "이 경로에서 지원하지 않는 HTTP 메서드입니다.",
  },
  409: {
    CONNECTION_REVOKED: "해지된 연결입니다. 연결을 다시 만들어 주세요.",
    CREDENTIAL_ALREADY_EXISTS: "이미 등록된 자격 증명입니다.",
    CREDENTIAL_CERTIFICATE_SERIAL_BACKFILL_IN_PROGRESS: "인증서 정보를 갱신하는 중입니다. 잠시 후 다시 시도해 주세요.",
    CREDENTIAL_EXPIRED: "만료된 자격 증명입니다. 다시 등록해 주세요.",
    CREDENTIAL_HAS_ACTIVE_CONNECTIONS: "이 자격 증명을 사용하는 연결이 있습니다. 연결을 먼저 해제해 주세요.",
    CREDENTIAL_NATIVE_REWRAP_IN_PROGRESS: "자격 증명 암호화 키를 교체하는 중입니다. 잠시 후 다시 시도해 주세요.",
    CREDENTIAL_PROVIDER_DUPLICATED: "이 기관의 자격 증명이 여러 개이고 기본 자격 증명이 없습니다. credentialId로 하나를 고르거나 기본 자격 증명을 정해 주세요.",
    CREDENTIAL_RECOVERY_IN_PROGRESS: "자격 증명 복구가 진행 중입니다.",
    CREDENTIAL_RECOVERY_NOT_ALLOWED: "이 자격 증명은 복구할 수 없습니다.",
    CREDENTIAL_REVOKED: "삭제된 자격 증명입니다(직접 삭제했거나 연결이 해지되었습니다). 다시 등록해 주세요.",
    CREDENTIAL_SUPERSEDED: "이 자격 증명은 다시 등록된 새 자격 증명으로 대체되었습니다. 새 자격 증명을 사용해 주세요.",
    DATA_JOB_NOT_FINISHED: "작업이 아직 진행 중입니다. 끝난(Succeeded 또는 Failed) 작업의 결과만 삭제할 수 있습니다. 작업이 끝난 뒤 다시 요청해 주세요.",
    DUPLICATE_EMAIL: "이미 사용 중인 이메일입니다.",
    IDEMPOTENCY_KEY_CONFLICT: "같은 Idempotency-Key가 다른 요청 내용으로 이미 사용되었습니다. 새 키를 사용해 주세요.",
    PAYMENT_METHOD_IN_USE: "사용 중인 결제 수단입니다.",
  },
  410: {
    DATA_JOB_RESULTS_DELETED: "이 작업의 결과는 삭제되었습니다(보관 기간 만료 또는 삭제 요청). 작업 정보는 GET /api/v1/data-jobs/{id}에서 계속 볼 수 있습니다. 결과가 필요하면 작업을 다시 만들어 주세요.",
    PARTNER_CREDENTIAL_API_UNSUPPORTED: "더 이상 지원하지 않는 파트너 자격 증명 API입니다.",
    REGISTRATION_SESSION_ALREADY_CANCELLED: "취소된 등록 세션입니다. 새 세션을 발급받아 주세요.",
    REGISTRATION_SESSION_ALREADY_CONSUMED: "이미 사용된 등록 세션입니다. 새 세션을 발급받아 주세요.",
    REGISTRATION_SESSION_EXPIRED: "만료된 등록 세션입니다. 새 세션을 발급받아 주세요.",
    REGISTRATION_SESSION_MAX_ATTEMPTS_EXCEEDED: "등록 시도 횟수를 초과했습니다. 새 세션을 발급받아 주세요.",
    REGISTRATION_SESSION_NOT_USABLE: "사용할 수 없는 등록 세션입니다. 새 세션을 발급받아 주세요.",
    USER_CODE_EXPIRED: "사용자 코드가 만료되었습니다.",
  },
  415: {
    UNSUPPORTED_MEDIA_TYPE: "Content-Type은 application/json이어야 합니다.",
  },
  422: {
    CERT_BIZNO_MISMATCH: "인증서의 사업자등록번호가 워크스페이스와 다릅니다.",
    CERT_ENCRYPTION_UNSUPPORTED: "지원하지 않는 인증서 암호화 방식입니다.",
    CERT_EXPIRED: "만료된 인증서입니다. 갱신한 인증서로 등록해 주세요.",
    CERT_INVALID: "인증서 파일을 읽을 수 없습니다. 파일을 확인해 주세요.",
    CERT_KEY_PAIR_MISMATCH: "인증서와 개인키가 짝이 맞지 않습니다.",
    CERT_KEY_USAGE_INVALID: "암호화 전용 인증서입니다. 서명용 인증서로 등록해 주세요.",
    CERT_R_VALUE_NOT_FOUND: "인증서에서 본인확인 값(R 값)을 찾을 수 없습니다.",
    CERT_TYPE_UNSUPPORTED: "사업자용 또는 법인용 인증서가 필요합니다.",
    CERT_WRONG_PASSWORD: "인증서 비밀번호가 올바르지 않습니다.",
    CREDENTIAL_INSUFFICIENT_FOR_PROVIDER: "이 기관은 이 자격 증명으로 로그인할 수 없습니다(전체 기관용 인증서는 인증서를 받는 기관에만 씁니다). 이 기관의 자격 증명을 등록해 주세요.",
    CREDENTIAL_PROBE_FAILED: "자격 증명 확인에 실패했습니다.",
    CREDENTIAL_SCOPE_NOT_SUPPORTED: "이 자격 증명으로는 요청한 범위를 지원하지 않습니다.",
  },
  429: {
    API_RATE_LIMITED: "요청 한도를 초과했습니다. Retry-After 헤더의 시간(초)만큼 기다린 뒤 다시 시도해 주세요.",
    FREE_PLAN_JOB_CAP_REACHED: "무료 플랜의 월간 작업 한도에 도달했습니다. 플랜을 변경하거나 다음 달에 다시 시도해 주세요.",
    FREE_PLAN_TASK_CAP_REACHED: "무료 플랜의 월간 수집 단계 한도에 도달했습니다. 플랜을 변경하거나 다음 달에 다시 시도해 주세요.",
    TOO_MANY_CONCURRENT_WORKERS: "동시에 실행 중인 작업이 너무 많습니다. 잠시 후 다시 시도해 주세요.",
    TOO_MANY_LOGIN_ATTEMPTS: "로그인 시도가 너무 많습니다. 잠시 후 다시 시도해 주세요.",
  },
  500: {
    ADMIN_ACTION_NOT_MARKED: "관리 작업 표시가 누락되었습니다.",
    CONNECTION_CREDENTIAL_UNREADABLE: "연결된 자격 증명을 읽을 수 없습니다.",
    INTERNAL_ERROR: "내부 오류가 발생했습니다. 잠시 후 다시 시도해 주세요. 계속되면 requestId와 함께 문의해 주세요.",
    SCRAPING_PARSER_NOT_FOUND: "수집 파서를 찾을 수 없습니다.",
    SCRAPING_RESPONSE_MALFORMED: "기관 응답을 해석할 수 없습니다.",
  },
  503: {
    CERT_CRYPTO_UNAVAILABLE: "인증서 암호화 모듈을 사용할 수 없습니다. 잠시 후 다시 시도해 주세요.",
    SCRAPING_ENGINE_UNAVAILABLE: "수집 엔진을 사용할 수 없습니다. 잠시 후 다시 시도해 주세요.",
  },
} as const;

type Catalog = typeof CATALOG;
type StatusOf<C> = { [S in keyof Catalog]: C extends keyof Catalog[S] ? S : never }[keyof Catalog];
export type ApiErrorCode = { [S in keyof Catalog]: keyof Catalog[S] }[keyof Catalog];
export type ErrorStatus = keyof Catalog;

/** Codes the spec flags for operator alerting. */
export const ALERTED_CODES: ReadonlySet<ApiErrorCode> = new Set<ApiErrorCode>([
  "WEBHOOK_SIGNATURE_INVALID", "SUBSCRIPTION_PAST_DUE", "CERT_BIZNO_MISMATCH", "CERT_ENCRYPTION_UNSUPPORTED",
  "CERT_EXPIRED", "CERT_INVALID", "CERT_KEY_PAIR_MISMATCH", "CERT_KEY_USAGE_INVALID", "CERT_R_VALUE_NOT_FOUND",
  "CERT_TYPE_UNSUPPORTED", "CERT_WRONG_PASSWORD", "CREDENTIAL_PROBE_FAILED", "ADMIN_ACTION_NOT_MARKED",
  "CONNECTION_CREDENTIAL_UNREADABLE", "INTERNAL_ERROR", "SCRAPING_PARSER_NOT_FOUND", "SCRAPING_RESPONSE_MALFORMED",
  "CERT_CRYPTO_UNAVAILABLE", "SCRAPING_ENGINE_UNAVAILABLE",
]);

interface CatalogEntry {
  status: ErrorStatus;
  message: string;
}

const ENTRIES = new Map<string, CatalogEntry>(
  Object.entries(CATALOG).flatMap(([status, codes]) =>
    Object.entries(codes).map(([code, message]) => [code, { status: Number(status) as ErrorStatus, message }] as const),
  ),
);

export function catalogEntry<C extends ApiErrorCode>(code: C): { status: StatusOf<C>; message: string } {
  return ENTRIES.get(code) as { status: StatusOf<C>; message: string };
}

export const API_ERROR_CODES = [...ENTRIES.keys()] as [ApiErrorCode, ...ApiErrorCode[]];
