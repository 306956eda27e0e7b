import { base64Encode } from "../../contracts/base64url";

/** What the portal's pages append to a request body (docs/institutions/hometax.md, "Request-integrity suffix"). */
export const SUFFIX_MARKER = "<nts<nts>nts>";

/** The seven HMAC keys of the portal's page script, `var testVal=[…]` in common_te-min.js. */
export type IntegrityKeys = readonly string[];

const KEY_COUNT = 7;

/**
 * The keys as the portal's script holds them, or null when the script no longer has exactly seven alphanumeric
 * strings in `testVal=[…]` (the portal changed it: the adapter stops rather than guess).
 */
export function keysFromScript(script: string): IntegrityKeys | null {
  const list = /testVal\s*=\s*\[([^\]]*)\]/.exec(script)?.[1];
  if (list === undefined) return null;
  const keys = [...list.matchAll(/"([A-Za-z0-9]+)"/g)].map((m) => m[1]!);
  return keys.length === KEY_COUNT && keys.every((k) => k.length >= 16) ? keys : null;
}

async function digest(key: string, message: string): Promise<string> {
  const hmacKey = await crypto.subtle.importKey("raw", new TextEncoder().encode(key), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", hmacKey, new TextEncoder().encode(message)));
  return base64Encode(mac).replace(/[^0-9A-Za-z]/g, "");
}

/** The suffix for `body` sent by `userId` (empty before login) at second `second` (0..59) of Korean time. */
export async function integritySuffix(keys: IntegrityKeys, body: string, userId: string, second: number): Promise<string> {
  return `${SUFFIX_MARKER}${second + 11}${await digest(keys[second % KEY_COUNT]!, body + userId)}${String(second).padStart(2, "0")}`;
}

/** Splits a sent body into the JSON and its suffix (null when none was sent). */
export function splitSuffix(sent: string): { body: string; suffix: string | null } {
  const at = sent.indexOf(SUFFIX_MARKER);
  return at < 0 ? { body: sent, suffix: null } : { body: sent.slice(0, at), suffix: sent.slice(at) };
}

/** The portal's side: whether a suffix was made with these keys for this body and user, within `toleranceSeconds` of `nowSecond`. */
export async function suffixIsValid(keys: IntegrityKeys, body: string, userId: string, suffix: string, nowSecond: number, toleranceSeconds = 5): Promise<boolean> {
  const match = /^<nts<nts>nts>(\d{2})([0-9A-Za-z]+)(\d{2})$/.exec(suffix);
  if (!match) return false;
  const second = Number(match[3]);
  if (second > 59 || Number(match[1]) !== second + 11) return false;
  const drift = Math.min((nowSecond - second + 60) % 60, (second - nowSecond + 60) % 60);
  if (drift > toleranceSeconds) return false;
  return (await integritySuffix(keys, body, userId, second)) === suffix;
}
