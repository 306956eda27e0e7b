import { ApiError, fieldError } from "../../platform/errors/api-error";

const MIN = 2;
const MAX = 50;
// Letters of any script, digits, spaces and the punctuation company names use.
const ALLOWED = /^[\p{L}\p{N} ()&.,·'_-]+$/u;
// A name is shown to businesses beside a request for their logins: an address there would invite phishing.
const LOOKS_LIKE_ADDRESS = /(:\/\/|www\.|\.(com|kr|net|io|co)\b)/i;

/**
 * A partner's public name (shown to the businesses it acts for): 2-50 characters of letters, digits, spaces and
 * `()&.,·'_-`, with a letter, and no web address; else 400 PARTNER_NAME_INVALID. Spaces are trimmed and runs of them
 * folded, so two names that look the same are the same.
 */
export function parsePartnerName(value: string): string {
  const name = value.trim().replace(/\s+/g, " ");
  const valid = name.length >= MIN && name.length <= MAX && ALLOWED.test(name) && /\p{L}/u.test(name) && !LOOKS_LIKE_ADDRESS.test(name);
  if (valid) return name;
  const message = `파트너 이름은 ${MIN}-${MAX}자의 글자, 숫자, 공백과 ()&.,·'_-로 쓰고, 글자를 하나 이상 넣되 웹 주소는 넣을 수 없습니다.`;
  throw new ApiError("PARTNER_NAME_INVALID", { message, fieldErrors: [fieldError("body.name", "PARTNER_NAME_INVALID", message)] });
}
