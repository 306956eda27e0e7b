import type { Context } from "hono";
import type { AppEnv } from "./app-env";
import { parseIpv6 } from "../../../contracts/public-address";

/** Leading 16-bit groups of an IPv6 address that name one subscriber: a /64, what one line, one phone or one VM is given. */
const IPV6_SUBSCRIBER_GROUPS = 4;

/**
 * What a limit counts a caller by: an IPv4 address as it is, an IPv6 address by its /64 (`2001:db8:1:2::/64`), since
 * one subscriber holds the whole /64 and could otherwise try from 2^64 addresses; an IPv4-mapped IPv6 address as its
 * IPv4 address. Anything else unchanged.
 */
export function limitedAddress(address: string): string {
  if (!address.includes(":")) return address;
  const groups = parseIpv6(address.replace(/%.*$/, ""));
  if (!groups) return address;
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    const [hi, lo] = [groups[6]!, groups[7]!];
    return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  }
  return `${groups.slice(0, IPV6_SUBSCRIBER_GROUPS).map((g) => g.toString(16)).join(":")}::/64`;
}

/**
 * The caller as Cloudflare's edge reports it (`CF-Connecting-IP`), as every address-keyed limit counts it
 * (`limitedAddress`: IPv6 by /64); local runs have none and share one.
 */
export const clientAddress = <E extends AppEnv>(c: Context<E>): string => limitedAddress(c.req.header("CF-Connecting-IP") ?? "local");
