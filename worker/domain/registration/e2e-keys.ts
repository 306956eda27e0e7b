import { ApiError } from "../../platform/errors/api-error";
import { base64UrlDecode } from "../../../contracts/base64url";

/**
 * End-to-end encryption of credentials from the end-user's browser to the
 * worker: ECDH P-256 with an ephemeral browser key, HKDF-SHA-256 bound to
 * the session id, AES-256-GCM. The service's private keys come from the
 * `REGISTRATION_E2E_KEYS` secret (a JSON array of private JWKs with `kid`);
 * the last one is current, older ones still decrypt during rotation.
 */
export interface E2eEnvelope {
  kid: string;
  /** The browser's ephemeral ECDH public key (JWK). */
  epk: JsonWebKey;
  iv: string;
  ct: string;
}

type PrivateJwk = JsonWebKey & { kid: string };

export const E2E_INFO_PREFIX = "collect-registration-v1:";

function keyring(secret: string): PrivateJwk[] {
  const keys = JSON.parse(secret) as PrivateJwk[];
  if (!Array.isArray(keys) || keys.length === 0) throw new Error("REGISTRATION_E2E_KEYS holds no keys");
  return keys;
}

/** The current public key, as the hosted UI fetches it. */
export function currentPublicKey(secret: string): { kid: string; jwk: JsonWebKey } {
  const { kid, kty, crv, x, y } = keyring(secret).at(-1)!;
  return { kid, jwk: { kty, crv, x, y } };
}

const encoder = new TextEncoder();

/** The AES-GCM key both ends derive: ECDH between one side's private and the other's public key, HKDF bound to the session. */
export async function sessionKey(own: CryptoKey, peer: CryptoKey, sessionId: string, usage: "encrypt" | "decrypt"): Promise<CryptoKey> {
  // workers-types spell the WebCrypto `public` member `$public`; the runtime wants `public`.
  const ecdh = { name: "ECDH", public: peer } as unknown as SubtleCryptoDeriveKeyAlgorithm;
  const shared = await crypto.subtle.deriveBits(ecdh, own, 256);
  const hkdf = await crypto.subtle.importKey("raw", shared, "HKDF", false, ["deriveKey"]);
  return crypto.subtle.deriveKey(
    { name: "HKDF", hash: "SHA-256", salt: new Uint8Array(0), info: encoder.encode(E2E_INFO_PREFIX + sessionId) },
    hkdf,
    { name: "AES-GCM", length: 256 },
    false,
    [usage],
  );
}

export async function decryptEnvelope(secret: string, sessionId: string, envelope: E2eEnvelope): Promise<unknown> {
  const jwk = keyring(secret).find((k) => k.kid === envelope.kid);
  if (!jwk) throw new ApiError("REGISTRATION_E2E_UNKNOWN_KEY_ID", { fieldErrors: [{ field: "body.kid", code: "REGISTRATION_E2E_UNKNOWN_KEY_ID", message: "알 수 없는 키 id입니다. 공개 키를 다시 받아 주세요." }] });
  try {
    const { kid: _kid, ...privateJwk } = jwk;
    const privateKey = await crypto.subtle.importKey("jwk", privateJwk, { name: "ECDH", namedCurve: "P-256" }, false, ["deriveBits"]);
    const peer = await crypto.subtle.importKey("jwk", envelope.epk, { name: "ECDH", namedCurve: "P-256" }, false, []);
    const key = await sessionKey(privateKey, peer, sessionId, "decrypt");
    const iv = base64UrlDecode(envelope.iv);
    const ct = base64UrlDecode(envelope.ct);
    if (!iv || !ct) throw new Error("not base64url");
    const plain = await crypto.subtle.decrypt({ name: "AES-GCM", iv, additionalData: encoder.encode(sessionId) }, key, ct);
    return JSON.parse(new TextDecoder().decode(plain));
  } catch {
    throw new ApiError("REGISTRATION_E2E_DECRYPT_FAILED");
  }
}
