import type { Context } from "hono";
import type { AppEnv } from "../../env";

/** Leading 16-bit groups of an IPv6 address that name one subscriber: a /64, what one line, one phone or one VM is given. */
const IPV6_SUBSCRIBER_GROUPS = 4;

/**
 * The groups of an IPv6 address written out (`::` expanded, an embedded IPv4 tail as two groups), lower-case and
 * without leading zeros; null for anything else.
 */
function ipv6Groups(address: string): string[] | null {
  let text = address.toLowerCase().replace(/%.*$/, "");
  const v4 = /^(.*:)(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4.slice(2).map(Number) as [number, number, number, number];
    if ([a, b, c, d].some((n) => n > 255)) return null;
    text = `${v4[1]}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const part = (s: string) => (s === "" ? [] : s.split(":"));
  const head = part(halves[0]!);
  const tail = halves.length === 2 ? part(halves[1]!) : [];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return null;
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill("0"), ...tail];
  if (!groups.every((g) => /^[0-9a-f]{1,4}$/.test(g))) return null;
  return groups.map((g) => g.replace(/^0+(?=.)/, ""));
}

/**
 * What a limit counts a caller by: an IPv4 address as it is, an IPv6 address by its /64 (`2001:db8:1:2::/64`), since
 * one subscriber holds the whole /64 and could otherwise try from 2^64 addresses; an IPv4-mapped IPv6 address as its
 * IPv4 address. Anything else unchanged.
 */
export function limitedAddress(address: string): string {
  if (!address.includes(":")) return address;
  const groups = ipv6Groups(address);
  if (!groups) return address;
  if (groups.slice(0, 5).every((g) => g === "0") && groups[5] === "ffff") {
    const [hi, lo] = [parseInt(groups[6]!, 16), parseInt(groups[7]!, 16)];
    return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  }
  return `${groups.slice(0, IPV6_SUBSCRIBER_GROUPS).join(":")}::/64`;
}

/**
 * The caller as Cloudflare's edge reports it (`CF-Connecting-IP`), as every address-keyed limit counts it
 * (`limitedAddress`: IPv6 by /64); local runs have none and share one.
 */
export const clientAddress = <E extends AppEnv>(c: Context<E>): string => limitedAddress(c.req.header("CF-Connecting-IP") ?? "local");
