/**
 * Which hosts and addresses the service may send to on a customer's word (a webhook URL, a delivery route's S3
 * endpoint or SFTP server): public ones only. The worker checks names and IP literals before storing and before every
 * try (worker/platform/http/public-destination.ts); the scraper, which can resolve names, checks every address a name
 * resolves to before it connects (scraper-container/sftp-upload.ts). One copy of the rules, for both.
 *
 * Refused: loopback, private, link-local, shared, documentation, benchmarking, multicast and reserved ranges (IPv4 and
 * IPv6), `localhost`, and names that only resolve inside a network. The local stack's loopback allowance is the
 * callers' to grant (LOOPBACK_HOSTS, isLoopbackAddress), never other private ranges.
 */

/** The hosts the local stack and the tests may reach when the deployment allows this machine (never production). */
export const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(["localhost", "127.0.0.1", "[::1]", "::1"]);

/** Names that never resolve on the public internet. */
const PRIVATE_SUFFIXES = [".localhost", ".local", ".internal", ".intranet", ".lan", ".home.arpa"];

/** IPv4 ranges that are not publicly routable unicast (RFC 6890 and successors), as [first octets, prefix length]. */
const IPV4_REFUSED: [number[], number][] = [
  [[0], 8], [[10], 8], [[100, 64], 10], [[127], 8], [[169, 254], 16], [[172, 16], 12], [[192, 0, 0], 24], [[192, 0, 2], 24],
  [[192, 88, 99], 24], [[192, 168], 16], [[198, 18], 15], [[198, 51, 100], 24], [[203, 0, 113], 24], [[224], 4], [[240], 4],
];

const PRIVATE_NAME = "localhost나 내부망 이름으로는 보낼 수 없습니다. 인터넷에서 닿는 도메인을 써 주세요.";
const PRIVATE_IPV4 = "사설, 루프백, 링크 로컬 또는 예약된 IPv4 주소로는 보낼 수 없습니다.";
const PRIVATE_IPV6 = "사설, 루프백, 링크 로컬 또는 예약된 IPv6 주소로는 보낼 수 없습니다.";
const SINGLE_LABEL = "점이 없는 이름은 내부망에서만 풀립니다. 인터넷에서 닿는 도메인을 써 주세요.";

function ipv4Number(octets: number[]): number {
  return octets.reduce((n, o) => n * 256 + o, 0);
}

function inIpv4Range(address: number[], [prefix, bits]: [number[], number]): boolean {
  const base = ipv4Number([...prefix, 0, 0, 0, 0].slice(0, 4));
  const size = 2 ** (32 - bits);
  const value = ipv4Number(address);
  return value >= base && value < base + size;
}

/** The four octets of a dotted-decimal IPv4 address, or null. */
export function parseIpv4(host: string): number[] | null {
  const parts = host.split(".");
  if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p))) return null;
  const octets = parts.map(Number);
  return octets.every((o) => o <= 255) ? octets : null;
}

/**
 * The eight 16-bit groups of an IPv6 address, bracketed as a URL writes it or bare as a resolver answers it (hex
 * groups, `::` compressed, an IPv4 tail such as `::ffff:10.0.0.1` allowed, a zone such as `%eth0` refused); or null.
 */
export function parseIpv6(host: string): number[] | null {
  const inner = host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
  if (!inner.includes(":") || !/^[0-9a-fA-F:.]+$/.test(inner)) return null;
  let text = inner;
  const tail = /(?:^|:)(\d{1,3}(?:\.\d{1,3}){3})$/.exec(text);
  if (tail) {
    const v4 = parseIpv4(tail[1]!);
    if (!v4) return null;
    text = `${text.slice(0, text.length - tail[1]!.length)}${((v4[0]! << 8) | v4[1]!).toString(16)}:${((v4[2]! << 8) | v4[3]!).toString(16)}`;
  }
  const [head, rest, extra] = text.split("::");
  if (extra !== undefined) return null;
  const groups = (s: string | undefined) => (s ? s.split(":").map((g) => (/^[0-9a-fA-F]{1,4}$/.test(g) ? parseInt(g, 16) : NaN)) : []);
  const left = groups(head);
  const right = groups(rest);
  const fill = rest === undefined ? 0 : 8 - left.length - right.length;
  if (rest !== undefined && fill < 1) return null;
  const all = [...left, ...Array<number>(Math.max(fill, 0)).fill(0), ...right];
  return all.length === 8 && all.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? all : null;
}

/**
 * Only global unicast (2000::/3) is public, less its documentation, special-purpose and 6to4 parts; everything else
 * (::1, ::, IPv4-mapped, NAT64, unique local fc00::/7, link-local fe80::/10, multicast) is refused.
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

/**
 * Why a host (a name, a dotted IPv4 literal, or an IPv6 literal, bracketed or not) is not a public destination, in
 * Korean; null when it is. A name passes on its face: whoever can resolve it checks the addresses too (addressProblem).
 */
export function hostProblem(host: string): string | null {
  const name = host.replace(/\.$/, "").toLowerCase();
  if (name === "localhost" || PRIVATE_SUFFIXES.some((s) => name.endsWith(s))) return PRIVATE_NAME;
  const v4 = parseIpv4(name);
  if (v4) return IPV4_REFUSED.some((range) => inIpv4Range(v4, range)) ? PRIVATE_IPV4 : null;
  if (name.startsWith("[") || name.includes(":")) {
    const v6 = parseIpv6(name);
    return v6 && publicIpv6(v6) ? null : PRIVATE_IPV6;
  }
  if (!name.includes(".")) return SINGLE_LABEL;
  return null;
}

/** Why a resolved address (dotted IPv4 or bare IPv6, as `dns.lookup` answers) may not be connected to; null when it may. */
export function addressProblem(address: string): string | null {
  if (parseIpv4(address)) return hostProblem(address);
  const v6 = parseIpv6(address);
  return v6 && publicIpv6(v6) ? null : PRIVATE_IPV6;
}

/** 127.0.0.1 or ::1: the addresses the local stack's allowance reaches (never the rest of 127/8 or another private range). */
export function isLoopbackAddress(address: string): boolean {
  if (address === "127.0.0.1") return true;
  const v6 = parseIpv6(address);
  return v6 !== null && v6.slice(0, 7).every((g) => g === 0) && v6[7] === 1;
}
