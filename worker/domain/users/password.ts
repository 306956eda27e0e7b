import { base64UrlDecode, base64UrlEncode } from "../../../contracts/base64url";

const encoder = new TextEncoder();
const SCHEME = "pbkdf2-sha256";
/** workerd refuses PBKDF2 above 100000 iterations, so this is the most Workers can do; stored per hash so it can be raised. */
export const PBKDF2_ITERATIONS = 100_000;
const SALT_BYTES = 16;
const HASH_BITS = 256;

async function derive(password: string, salt: Uint8Array<ArrayBuffer>, iterations: number): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey("raw", encoder.encode(password), "PBKDF2", false, ["deriveBits"]);
  return new Uint8Array(await crypto.subtle.deriveBits({ name: "PBKDF2", hash: "SHA-256", salt, iterations }, key, HASH_BITS));
}

/** `pbkdf2-sha256$<iterations>$<salt>$<hash>`, salt and hash base64url. */
export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(SALT_BYTES));
  const hash = await derive(password, salt, PBKDF2_ITERATIONS);
  return [SCHEME, PBKDF2_ITERATIONS, base64UrlEncode(salt), base64UrlEncode(hash)].join("$");
}

/** Whether `password` matches `stored`, compared in constant time; a malformed stored value never matches. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, iterationsText, saltText, hashText] = stored.split("$");
  const iterations = Number(iterationsText);
  const salt = base64UrlDecode(saltText ?? "");
  const expected = base64UrlDecode(hashText ?? "");
  if (scheme !== SCHEME || !Number.isInteger(iterations) || iterations < 1 || !salt || !expected) return false;
  const actual = await derive(password, salt, iterations);
  return sameBytes(actual, expected);
}

/** Constant-time comparison written out, because this module also runs in Node (seeding the demo user), which lacks subtle.timingSafeEqual. */
function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.byteLength !== b.byteLength) return false;
  let difference = 0;
  for (let i = 0; i < a.byteLength; i++) difference |= a[i]! ^ b[i]!;
  return difference === 0;
}

/** A hash no password matches, verified against when the e-mail is unknown so the answer takes as long as for a known one. */
export const UNMATCHABLE_HASH = `${SCHEME}$${PBKDF2_ITERATIONS}$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA`;
