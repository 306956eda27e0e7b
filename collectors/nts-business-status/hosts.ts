/** The odcloud gateway data.go.kr serves the NTS API from (N2, N3, N6). */
export const NTS_API_HOST = "api.odcloud.kr";
export const NTS_STATUS_HOSTS = [NTS_API_HOST];

/** `POST /status`: business numbers only, at most this many a call (N1, N2, N3, N4, N6). */
export const STATUS_URL = `https://${NTS_API_HOST}/api/nts-businessman/v1/status`;
export const MAX_NUMBERS_PER_CALL = 100;

/** The text of `tax_type` for a number NTS does not know (N2, N5, N7 and many clients compare it exactly). */
export const UNREGISTERED_TEXT = "국세청에 등록되지 않은 사업자등록번호입니다.";

/**
 * The key's query value. The portal issues each key plainly ("Decoding") and URL-encoded ("Encoding"); clients either
 * encode the plain one once (N3) or paste the encoded one as is (N6). A key already holding `%XX` is the encoded form
 * and goes as it is, so neither form is encoded twice (what a doubly-encoded key answers is unknown).
 */
export function serviceKeyQuery(key: string): string {
  return /%[0-9A-Fa-f]{2}/.test(key) ? key : encodeURIComponent(key);
}
