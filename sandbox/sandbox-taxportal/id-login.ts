import type { LoginResult } from "../certificates/signed-login";
import { ID_MEMBERS } from "./members";

/** The portal's early-morning maintenance, in Korean time (kept while the sandbox keeps hours). */
export const MAINTENANCE_HOURS = { from: "00:00", to: "06:00" } as const;

export const ID_LOGIN_MESSAGES = {
  wrongPassword: "아이디 또는 비밀번호가 일치하지 않습니다. 다시 확인해 주십시오.",
  secondFactorMissing: "본인확인을 위해 주민등록번호 앞 7자리를 입력해 주십시오.",
  secondFactorMismatch: "입력하신 주민등록번호가 회원정보와 일치하지 않습니다.",
  maintenance: `시스템 점검 안내: 매일 ${MAINTENANCE_HOURS.from}~${MAINTENANCE_HOURS.to}은 시스템 점검 시간으로 서비스를 이용하실 수 없습니다.`,
} as const;


/** The portal's side of an ID login, in its order: ID and password, then the resident-number check. */
export function checkIdLogin(input: { loginId: string; password: string; residentPrefix: string }): LoginResult {
  const member = ID_MEMBERS.find((m) => m.loginId === input.loginId);
  if (!member || member.password !== input.password) return { ok: false, message: ID_LOGIN_MESSAGES.wrongPassword };
  if (input.residentPrefix === "") return { ok: false, message: ID_LOGIN_MESSAGES.secondFactorMissing };
  if (input.residentPrefix !== member.residentPrefix) return { ok: false, message: ID_LOGIN_MESSAGES.secondFactorMismatch };
  return { ok: true, businessNumber: member.businessNumber };
}
