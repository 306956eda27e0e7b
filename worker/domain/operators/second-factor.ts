/**
 * Time-based one-time passwords (RFC 6238 over RFC 4226's HOTP, HMAC-SHA-1, 30 s steps, 6 digits): the defaults every
 * authenticator app reads from an `otpauth://` link. The secret is base32 (RFC 4648), as those links carry it.
 */
const STEP_SECONDS = 30;
const DIGITS = 6;
/** Codes one step either side of now are accepted: a phone's clock a little off, a code typed as it turned. */
const DRIFT_STEPS = 1;
const SECRET_BYTES = 20;
const BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

export function base32Encode(bytes: Uint8Array): string {
  let bits = 0;
  let value = 0;
  let out = "";
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  return bits > 0 ? out + BASE32[(value << (5 - bits)) & 31] : out;
}

function base32Decode(text: string): Uint8Array<ArrayBuffer> {
  const clean = text.replace(/=+$/, "").toUpperCase();
  const out = new Uint8Array(Math.floor((clean.length * 5) / 8));
  let bits = 0;
  let value = 0;
  let index = 0;
  for (const char of clean) {
    const digit = BASE32.indexOf(char);
    if (digit < 0) throw new Error("not base32");
    value = (value << 5) | digit;
    bits += 5;
    if (bits >= 8) {
      out[index++] = (value >>> (bits - 8)) & 255;
      bits -= 8;
    }
  }
  return out;
}

export const newTotpSecret = (): string => base32Encode(crypto.getRandomValues(new Uint8Array(SECRET_BYTES)));

/** The link an authenticator app scans to enrol (Google Authenticator's Key Uri Format). */
export const totpUri = (email: string, secret: string): string =>
  `otpauth://totp/collect-edge:${encodeURIComponent(email)}?secret=${secret}&issuer=collect-edge&algorithm=SHA1&digits=${DIGITS}&period=${STEP_SECONDS}`;

async function hotp(key: CryptoKey, counter: number): Promise<string> {
  const message = new DataView(new ArrayBuffer(8));
  message.setUint32(0, Math.floor(counter / 2 ** 32));
  message.setUint32(4, counter >>> 0);
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, message.buffer));
  // Dynamic truncation (RFC 4226 section 5.3).
  const offset = mac[mac.length - 1]! & 15;
  const binary = ((mac[offset]! & 127) << 24) | (mac[offset + 1]! << 16) | (mac[offset + 2]! << 8) | mac[offset + 3]!;
  return String(binary % 10 ** DIGITS).padStart(DIGITS, "0");
}

/**
 * The time step whose code `code` is, among the steps around `now` later than `lastStep` (the last one accepted, so a
 * code is good once); null when it is none of them. Every step's code is computed whatever matches, so the work done
 * is the same for a right code, a wrong one and a dummy secret (domain/operators/sign-in.ts).
 */
export async function acceptedStep(secret: string, code: string, lastStep: number, now: number = Date.now()): Promise<number | null> {
  if (!/^\d{6}$/.test(code)) return null;
  const key = await crypto.subtle.importKey("raw", base32Decode(secret), { name: "HMAC", hash: "SHA-1" }, false, ["sign"]);
  const current = Math.floor(now / 1000 / STEP_SECONDS);
  let accepted: number | null = null;
  for (let step = current - DRIFT_STEPS; step <= current + DRIFT_STEPS; step++) {
    // A plain comparison: guesses are rate-limited per address and account, and a code lives a minute.
    const matches = (await hotp(key, step)) === code;
    if (matches && step > lastStep && accepted === null) accepted = step;
  }
  return accepted;
}
