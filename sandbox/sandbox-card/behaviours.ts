/**
 * How the sandbox card issuer misbehaves for a password `error_<CODE>`, and
 * the texts of the pages it puts in front of its service. The adapter must
 * recognise the page, never the password.
 */
export type CardNotice = "locked" | "maintenance" | "session";

export type CardBehaviour =
  /** A notice instead of a session. */
  | { kind: "notice"; notice: CardNotice }
  /** Logged in, but held on the password change page: the password has expired. */
  | { kind: "password-expired" }
  /** Logged in, past the reminder, but the security program page cannot be skipped. */
  | { kind: "security-required" }
  /** Logged in; the session ends at the first approval inquiry. */
  | { kind: "session-expired" };

export const CARD_BEHAVIOURS = {
  LOGIN_FAILED: { kind: "password-expired" },
  LOGIN_LOCKED: { kind: "notice", notice: "locked" },
  PROVIDER_TIME_WINDOW: { kind: "notice", notice: "maintenance" },
  OVERSEAS_IP_BLOCKED: { kind: "security-required" },
  SESSION_EXPIRED: { kind: "session-expired" },
} as const satisfies Record<string, CardBehaviour>;

/** Every code the sandbox card issuer can be made to show, for docs and tests. */
export const SANDBOX_CARD_ERROR_CODES = Object.keys(CARD_BEHAVIOURS) as (keyof typeof CARD_BEHAVIOURS)[];

export const WRONG_PASSWORD = "아이디 또는 비밀번호가 일치하지 않습니다. (비밀번호 오류 1회 / 5회)";

/** The issuer's daily maintenance and its month-end settlement batch, as its notice gives them (kept while the sandbox keeps hours). */
export const MAINTENANCE_HOURS = { from: "23:50", to: "00:10" } as const;
export const MONTH_END_HOURS = { from: "23:00", to: "01:00", on: "monthEnd" } as const;

export const NOTICES: Record<CardNotice, { title: string; text: string }> = {
  locked: { title: "이용 정지 안내", text: "비밀번호 5회 연속 오류로 법인카드 홈페이지 이용이 정지되었습니다. 본인 확인 후 비밀번호를 재설정해 주십시오. (고객센터 1588-0000)" },
  maintenance: { title: "시스템 점검 안내", text: `법인카드 시스템 정기점검 중입니다. 점검시간: 매일 ${MAINTENANCE_HOURS.from} ~ ${MAINTENANCE_HOURS.to}, 매월 말일 ${MONTH_END_HOURS.from} ~ 익일 ${MONTH_END_HOURS.to} (월말 정산). 점검시간에는 조회 서비스를 이용하실 수 없습니다.` },
  session: { title: "로그인 시간 만료", text: "로그인 후 10분 동안 이용이 없어 로그인 시간이 만료되었습니다. 다시 로그인해 주십시오." },
};

export const PASSWORD_EXPIRED = {
  title: "비밀번호 유효기간 만료",
  text: "비밀번호를 변경하신 지 180일이 지나 비밀번호 유효기간이 만료되었습니다. 비밀번호를 변경하셔야 서비스를 이용하실 수 있습니다.",
};

// Real issuers tie a mandatory install to the customer's own access-environment setting.
export const SECURITY_REQUIRED = {
  title: "보안프로그램 설치 필요",
  text: "고객님께서 신청하신 '접속 환경 보안' 서비스에 따라, 등록되지 않은 접속 환경(해외 IP 포함)에서는 보안프로그램을 설치하고 추가 인증을 마친 후에만 이용하실 수 있습니다. 보안프로그램 설치 후 다시 로그인해 주십시오.",
};

/** The pop-up notice of the logged-in pages, until "오늘 하루 보지 않기". */
export const POPUP_NOTICE = {
  id: "N2611",
  title: "[공지] 법인카드 홈페이지 개편 안내",
  body: "보다 편리한 서비스를 위해 법인카드 홈페이지가 새롭게 개편됩니다. 개편 기간 중에도 승인내역 조회는 정상적으로 이용하실 수 있습니다.",
};
