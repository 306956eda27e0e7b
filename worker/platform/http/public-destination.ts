import { hostProblem, LOOPBACK_HOSTS } from "../../../contracts/public-address";
import { flagOn } from "../configuration";

/**
 * SSRF defence at the door, for every request the service makes to a place a customer chose (a webhook URL, a delivery
 * route's S3 endpoint or SFTP server): https on a public name or a public IP literal (contracts/public-address.ts),
 * checked when it is stored and again before every try. With `allowLocal` (the local stack and the tests only,
 * WEBHOOK_ALLOW_LOCAL_URLS) http or https to localhost, 127.0.0.1 or [::1] passes too, so a server on the developer's
 * machine can be used; no other private address ever does. The callers wrap a problem in their own error code.
 */

export const MAX_DESTINATION_URL_LENGTH = 2048;
/** `URL.port` is empty for https' default, 443. Other ports are where internal services listen, not receivers. */
const PUBLIC_PORTS = new Set(["", "8443"]);

/** A URL to store (normalised by the WHATWG parser, so `https://2130706433/` is seen as 127.0.0.1) or why not, in Korean. */
export function destinationUrl(raw: string, allowLocal: boolean): { url: string } | { problem: string } {
  if (raw.length > MAX_DESTINATION_URL_LENGTH) return { problem: `URL은 ${MAX_DESTINATION_URL_LENGTH}자 이하여야 합니다.` };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { problem: "https://로 시작하는 절대 URL을 보내 주세요." };
  }
  if (url.username || url.password) return { problem: "URL에 사용자 이름이나 비밀번호를 넣을 수 없습니다." };
  const local = allowLocal && LOOPBACK_HOSTS.has(url.hostname) && (url.protocol === "http:" || url.protocol === "https:");
  if (local) return { url: url.href };
  if (url.protocol !== "https:") return { problem: "https URL만 받습니다." };
  if (!PUBLIC_PORTS.has(url.port)) return { problem: "포트는 443(기본)이나 8443만 쓸 수 있습니다." };
  const problem = hostProblem(url.hostname);
  return problem ? { problem } : { url: url.href };
}

/**
 * A bare host to store (an SFTP server's: a name, a dotted IPv4 or an IPv6 literal without brackets, normalised by the
 * WHATWG parser as in a URL, so `2130706433` is 127.0.0.1) or why not, in Korean. Any port may follow it: the address
 * is what the rules guard. The scraper checks the addresses a name resolves to before it connects.
 */
export function destinationHost(raw: string, allowLocal: boolean): { host: string } | { problem: string } {
  const bracketed = raw.includes(":") && !raw.startsWith("[") ? `[${raw}]` : raw;
  let url: URL | null = null;
  try {
    url = /^[^/?#@\\\s]+$/.test(bracketed) ? new URL(`https://${bracketed}/`) : null;
  } catch {
    url = null;
  }
  // Only a host: a port, a path or user info written into it is not one.
  if (!url || url.port || url.host !== url.hostname || !url.hostname) return { problem: "호스트 이름이나 IP 주소만 보내 주세요 (포트는 port에)." };
  const host = url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
  if (allowLocal && LOOPBACK_HOSTS.has(host)) return { host };
  const problem = hostProblem(url.hostname);
  return problem ? { problem } : { host };
}

/** Whether this deployment lets the service reach the local machine (never set in production). */
export const localDestinationsAllowed = (env: { WEBHOOK_ALLOW_LOCAL_URLS?: string }): boolean => flagOn(env.WEBHOOK_ALLOW_LOCAL_URLS);
