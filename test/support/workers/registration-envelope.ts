import { base64UrlEncode } from "../../../contracts/base64url";
import { sessionKey } from "../../../worker/domain/registration/e2e-keys";

/** What the hosted UI does in the browser, for tests that play the browser's part. */
export async function encryptForService(key: { kid: string; jwk: JsonWebKey }, sessionId: string, payload: unknown) {
  const enc = new TextEncoder();
  const serverKey = await crypto.subtle.importKey("jwk", key.jwk, { name: "ECDH", namedCurve: "P-256" }, false, []);
  const eph = (await crypto.subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, true, ["deriveBits"])) as CryptoKeyPair;
  const aes = await sessionKey(eph.privateKey, serverKey, sessionId, "encrypt");
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const ct = await crypto.subtle.encrypt({ name: "AES-GCM", iv, additionalData: enc.encode(sessionId) }, aes, enc.encode(JSON.stringify(payload)));
  const { kty, crv, x, y } = (await crypto.subtle.exportKey("jwk", eph.publicKey)) as JsonWebKey;
  return { kid: key.kid, epk: { kty, crv, x, y }, iv: base64UrlEncode(iv), ct: base64UrlEncode(new Uint8Array(ct)) };
}

/** What the hosted UI sends with every call: the session's token, nothing more (the allowlist is the session's). */
export function hostedUiHeaders(token: string): Record<string, string> {
  return { Authorization: `Bearer ${token}` };
}
