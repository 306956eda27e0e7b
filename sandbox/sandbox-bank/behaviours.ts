/**
 * How the sandbox bank misbehaves for a password `error_<CODE>`: where the
 * condition shows up (at login or during transaction inquiry) and what the
 * site shows there. The adapter must recognise the page, not the password.
 */
export type LoginNotice = "locked" | "maintenance" | "overseas" | "duplicate" | "concurrent";
export type InquiryFault = "session-expired" | "throttled" | "malformed" | "hang" | "delayed" | "server-error";

export const LOGIN_BEHAVIOURS: Record<string, { notice?: LoginNotice; message?: string }> = {
  LOGIN_FAILED: { message: "아이디 또는 비밀번호가 일치하지 않습니다. (비밀번호 오류 1회 / 5회)" },
  LOGIN_TRANSIENT: { message: "일시적으로 로그인 처리가 원활하지 않습니다. 잠시 후 다시 이용해 주십시오. [E1002]" },
  LOGIN_LOCKED: { notice: "locked" },
  PROVIDER_TIME_WINDOW: { notice: "maintenance" },
  OVERSEAS_IP_BLOCKED: { notice: "overseas" },
  DUPLICATE_LOGIN: { notice: "duplicate" },
  CONCURRENT_SESSION: { notice: "concurrent" },
  // A message no adapter rule knows, as a real bank shows after an unannounced change, naming the customer and account
  // as banks do: the operators' log gets it redacted (docs/security.md, "Third layer: failure reports").
  UNKNOWN: { message: "김하늘 고객님(계좌 110-234-567890)의 요청을 처리하지 못했습니다. 거래 유형 코드를 확인해 주십시오. [X7731]" },
};

export const INQUIRY_BEHAVIOURS: Record<string, InquiryFault> = {
  SESSION_EXPIRED: "session-expired",
  RATE_LIMITED: "throttled",
  PROVIDER_RESPONSE_MALFORMED: "malformed",
  TIMEOUT: "hang",
  PROVIDER_DELAYED: "delayed",
  PROVIDER_ERROR: "server-error",
};

/** Every code the sandbox bank can be made to show, for docs and tests. */
export const SANDBOX_BANK_ERROR_CODES = [...Object.keys(LOGIN_BEHAVIOURS), ...Object.keys(INQUIRY_BEHAVIOURS)];

/** The bank's daily maintenance, as its notice gives it (kept while the sandbox keeps hours). */
export const MAINTENANCE_HOURS = { from: "00:00", to: "00:30" } as const;

export const NOTICES: Record<LoginNotice, { title: string; text: string }> = {
  locked: { title: "이용 제한 안내", text: "비밀번호를 5회 연속 잘못 입력하여 인터넷뱅킹 이용이 제한되었습니다. 가까운 영업점을 방문하시거나 고객센터(1588-0000)로 잠금 해제를 요청해 주십시오." },
  maintenance: { title: "시스템 점검 안내", text: `보다 나은 서비스를 위해 시스템 정기점검을 실시하고 있습니다. 점검시간: 매일 ${MAINTENANCE_HOURS.from} ~ ${MAINTENANCE_HOURS.to}. 점검시간에는 인터넷뱅킹 이용이 불가합니다.` },
  overseas: { title: "해외 IP 접속 차단", text: "고객님께서 신청하신 해외 IP 차단 서비스에 따라 해외에서의 접속이 차단되었습니다. 해제를 원하시면 고객센터로 문의해 주십시오." },
  duplicate: { title: "중복 로그인 안내", text: "동일한 아이디로 다른 기기에서 로그인되어 이전 접속이 종료되었습니다. 중복 로그인은 허용되지 않습니다." },
  concurrent: { title: "접속 중인 세션 안내", text: "고객님의 아이디는 현재 다른 곳에서 이미 로그인 중입니다. 기존 접속을 로그아웃한 후 다시 이용해 주십시오." },
};
