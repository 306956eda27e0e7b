/** Free mail providers (Korean and global) whose addresses do not identify a company; the spec asks for a company e-mail. */
const PERSONAL_DOMAINS = new Set([
  "gmail.com", "googlemail.com", "naver.com", "daum.net", "hanmail.net", "kakao.com", "nate.com", "empas.com", "paran.com",
  "dreamwiz.com", "korea.com", "hanmir.com", "chol.com", "freechal.com", "lycos.co.kr", "yahoo.com", "yahoo.co.kr",
  "hotmail.com", "outlook.com", "live.com", "msn.com", "icloud.com", "me.com", "aol.com", "proton.me", "protonmail.com",
]);

/** Trimmed and lower-cased: the form in which e-mails are stored and compared. */
export const normalizeEmail = (email: string): string => email.trim().toLowerCase();

export function isPersonalEmail(email: string): boolean {
  return PERSONAL_DOMAINS.has(normalizeEmail(email).split("@").pop() ?? "");
}
