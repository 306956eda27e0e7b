import { ApiError, fieldError } from "../../platform/errors/api-error";
import { flagOn } from "../../platform/configuration";

/**
 * SSRF defence at the door: a webhook URL must be https on a public name or
 * a public IP literal. Loopback, private, link-local, shared, documentation,
 * multicast and reserved ranges (IPv4 and IPv6), `localhost` and names that
 * only resolve inside a network are refused. With `allowLocal` (the local
 * stack and tests only, WEBHOOK_ALLOW_LOCAL_URLS) http or https to
 * localhost, 127.0.0.1 or [::1] is accepted too, so a receiver on the
 * developer's machine can be registered.
 */

export const MAX_WEBHOOK_URL_LENGTH = 2048;
/** `URL.port` is empty for https' default, 443. */
const PUBLIC_PORTS = new Set(["", "8443"]);
const LOCAL_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);
/** Names that never resolve on the public internet. */
const PRIVATE_SUFFIXES = [".localhost", ".local", ".internal", ".intranet", ".lan", ".home.arpa"];

/** IPv4 ranges that are not publicly routable unicast (RFC 6890 and successors), as [first octets, prefix length]. */
const IPV4_REFUSED: [number[], number][] = [
  [[0], 8], [[10], 8], [[100, 64], 10], [[127], 8], [[169, 254], 16], [[172, 16], 12], [[192, 0, 0], 24], [[192, 0, 2], 24],
  [[192, 88, 99], 24], [[192, 168], 16], [[198, 18], 15], [[198, 51, 100], 24], [[203, 0, 113], 24], [[224], 4], [[240], 4],
];

function ipv4Number(octets: number[]): number {
  return octets.reduce((n, o) => n * 256 + o, 0);
}

function inIpv4Range(address: number[], [prefix, bits]: [number[], number]): boolean {
  const base = ipv4Number([...prefix, 0, 0, 0, 0].slice(0, 4));
  const size = 2 ** (32 - bits);
  const value = ipv4Number(address);
  return value >= base && value < base + size;
}

function parseIpv4(host: string): number[] | null {
  const parts = host.split(".");
  if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p))) return null;
  const octets = parts.map(Number);
  return octets.every((o) => o <= 255) ? octets : null;
}

/** The eight 16-bit groups of a bracketed IPv6 literal as the URL parser writes it (hex groups, `::` compressed). */
function parseIpv6(host: string): number[] | null {
  if (!host.startsWith("[") || !host.endsWith("]")) return null;
  const inner = host.slice(1, -1);
  const [head, tail, extra] = inner.split("::");
  if (extra !== undefined) return null;
  const groups = (s: string | undefined) => (s ? s.split(":").map((g) => parseInt(g, 16)) : []);
  const left = groups(head);
  const right = groups(tail);
  const fill = tail === undefined ? 0 : 8 - left.length - right.length;
  const all = [...left, ...Array<number>(Math.max(fill, 0)).fill(0), ...right];
  return all.length === 8 && all.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? all : null;
}

/**
 * Only global unicast (2000::/3) is public, less its documentation, special-
 * purpose and 6to4 parts; everything else (::1, ::, IPv4-mapped, NAT64,
 * unique local fc00::/7, link-local fe80::/10, multicast) is refused.
 */
function publicIpv6(g: number[]): boolean {
  const first = g[0]!;
  if ((first & 0xe000) !== 0x2000) return false;
  if (first === 0x2001 && g[1]! < 0x0200) return false; // 2001::/23 IETF special purpose (Teredo, benchmarking, ORCHID)
  if (first === 0x2001 && g[1] === 0x0db8) return false; // 2001:db8::/32 documentation
  if (first === 0x2002) return false; // 6to4 embeds any IPv4, private ones included
  if (first === 0x3fff && g[1]! < 0x1000) return false; // 3fff::/20 documentation
  return true;
}

/** Why the host is not a public destination, or null when it is. */
function hostProblem(host: string): string | null {
  const name = host.replace(/\.$/, "").toLowerCase();
  if (name === "localhost" || PRIVATE_SUFFIXES.some((s) => name.endsWith(s))) return "localhost나 내부망 이름으로는 보낼 수 없습니다. 인터넷에서 닿는 도메인을 써 주세요.";
  const v4 = parseIpv4(name);
  if (v4) return IPV4_REFUSED.some((range) => inIpv4Range(v4, range)) ? "사설, 루프백, 링크 로컬 또는 예약된 IPv4 주소로는 보낼 수 없습니다." : null;
  const v6 = parseIpv6(name);
  if (name.startsWith("[")) return v6 && publicIpv6(v6) ? null : "사설, 루프백, 링크 로컬 또는 예약된 IPv6 주소로는 보낼 수 없습니다.";
  if (!name.includes(".")) return "점이 없는 이름은 내부망에서만 풀립니다. 인터넷에서 닿는 도메인을 써 주세요.";
  return null;
}

function refuse(detail: string, field: string): ApiError {
  const message = `웹훅 URL이 올바르지 않습니다. ${detail}`;
  return new ApiError("PARTNER_WEBHOOK_URL_INVALID", { message, fieldErrors: [fieldError(field, "PARTNER_WEBHOOK_URL_INVALID", message)] });
}

/** The URL to store, or PARTNER_WEBHOOK_URL_INVALID saying what is wrong with it. */
export function checkWebhookUrl(raw: string, allowLocal: boolean, field = "body.url"): string {
  if (raw.length > MAX_WEBHOOK_URL_LENGTH) throw refuse(`URL은 ${MAX_WEBHOOK_URL_LENGTH}자 이하여야 합니다.`, field);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw refuse("https://로 시작하는 절대 URL을 보내 주세요.", field);
  }
  if (url.username || url.password) throw refuse("URL에 사용자 이름이나 비밀번호를 넣을 수 없습니다.", field);
  const local = allowLocal && LOCAL_HOSTS.has(url.hostname) && (url.protocol === "http:" || url.protocol === "https:");
  if (local) return url.href;
  if (url.protocol !== "https:") throw refuse("https URL만 받습니다.", field);
  // Other ports are where internal services listen (databases, admin consoles), not webhook receivers.
  if (!PUBLIC_PORTS.has(url.port)) throw refuse("포트는 443(기본)이나 8443만 쓸 수 있습니다.", field);
  const problem = hostProblem(url.hostname);
  if (problem) throw refuse(problem, field);
  return url.href;
}

/**
 * Why a stored URL may no longer be sent to, or null: checked again before every attempt, so an endpoint stored
 * before a rule existed (or written around the API) gets nothing.
 */
export function deliveryUrlRefusal(url: string, allowLocal: boolean): string | null {
  try {
    checkWebhookUrl(url, allowLocal);
    return null;
  } catch (err) {
    if (err instanceof ApiError) return `refused: ${err.message}`;
    throw err;
  }
}

/** Whether this deployment lets webhooks reach the local machine (never set in production). */
export const localUrlsAllowed = (env: { WEBHOOK_ALLOW_LOCAL_URLS?: string }): boolean => flagOn(env.WEBHOOK_ALLOW_LOCAL_URLS);
