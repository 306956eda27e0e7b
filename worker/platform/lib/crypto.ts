import { base64UrlEncode } from "../../../contracts/base64url";

const encoder = new TextEncoder();

export async function sha256Hex(input: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", encoder.encode(input));
  return toHex(new Uint8Array(digest));
}

/**
 * Each byte's two digits, made once: a request hashes its key and makes its trace's ids, and a digit pair looked up is
 * cheaper than a string made, padded and joined per byte (docs/benchmarks.md, stop 68).
 */
const HEX_PAIRS = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, "0"));

export function toHex(bytes: Uint8Array): string {
  let text = "";
  for (const byte of bytes) text += HEX_PAIRS[byte];
  return text;
}

/** Random URL-safe token with `bytes` bytes of entropy. */
export function randomToken(bytes: number): string {
  return base64UrlEncode(crypto.getRandomValues(new Uint8Array(bytes)));
}

export async function hmacKey(secret: string): Promise<CryptoKey> {
  return crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]);
}
