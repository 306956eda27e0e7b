/**
 * The sandbox certificate format: a stand-in for the NPKI pair a Korean
 * business keeps (signCert.der + signPri.key), shaped so that every check
 * a real one needs has something to check, yet readable with WebCrypto
 * alone. Both files are PEM-like armour around base64 JSON:
 *
 *   -----BEGIN SANDBOX CERTIFICATE-----            (CertificateBody)
 *   -----BEGIN SANDBOX ENCRYPTED PRIVATE KEY-----  (EncryptedKeyBody)
 *
 * The private key is an ECDSA P-256 PKCS#8 key, encrypted with AES-256-GCM
 * under a key derived from the certificate password with PBKDF2-SHA-256.
 * See docs/sandbox-certificates.md.
 */
import { base64Decode, base64Encode } from "../lib/base64url";

export const CERTIFICATE_LABEL = "SANDBOX CERTIFICATE";
export const PRIVATE_KEY_LABEL = "SANDBOX ENCRYPTED PRIVATE KEY";

export const CERTIFICATE_TYPES = ["BUSINESS", "CORPORATE", "PERSONAL"] as const;
export type CertificateType = (typeof CERTIFICATE_TYPES)[number];

export interface CertificateBody {
  version: 1;
  serialNumber: string;
  subject: { commonName: string; businessNumber: string | null };
  certificateType: CertificateType;
  /** X.509 key usage names; a signing certificate has `digitalSignature`. */
  keyUsage: string[];
  notBefore: string;
  notAfter: string;
  /** ECDSA P-256 public key. */
  publicKey: JsonWebKey;
}

export interface EncryptedKeyBody {
  version: 1;
  kdf: { name: string; hash: string; iterations: number; salt: string };
  cipher: { name: string; iv: string };
  /** AES-GCM ciphertext of the PKCS#8 key, base64. */
  data: string;
}

/** PBKDF2 bounds: workerd refuses more than 100 000 iterations, and fewer than 10 000 is too weak to accept. */
export const PBKDF2_MIN_ITERATIONS = 10_000;
export const PBKDF2_MAX_ITERATIONS = 100_000;

export function armor(label: string, body: unknown): string {
  const lines = base64Encode(new TextEncoder().encode(JSON.stringify(body))).match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${label}-----\n${lines.join("\n")}\n-----END ${label}-----\n`;
}

/** The JSON inside an armoured file, or null for anything else. */
export function unarmor(label: string, text: string): Record<string, unknown> | null {
  const match = new RegExp(`^\\s*-----BEGIN ${label}-----([A-Za-z0-9+/=\\s]+)-----END ${label}-----\\s*$`).exec(text);
  const bytes = match ? base64Decode(match[1]!.replace(/\s+/g, "")) : null;
  if (!bytes) return null;
  try {
    const value: unknown = JSON.parse(new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes));
    return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

const isString = (v: unknown): v is string => typeof v === "string";

/** The certificate's fields if they have the shape of the format; no cryptography. */
export function readCertificate(text: string): CertificateBody | null {
  const body = unarmor(CERTIFICATE_LABEL, text);
  if (!body || body.version !== 1 || !isString(body.serialNumber)) return null;
  const subject = body.subject as CertificateBody["subject"] | undefined;
  if (!subject || !isString(subject.commonName) || !(subject.businessNumber === null || isString(subject.businessNumber))) return null;
  if (!CERTIFICATE_TYPES.includes(body.certificateType as CertificateType)) return null;
  if (!Array.isArray(body.keyUsage) || !body.keyUsage.every(isString)) return null;
  if (!isString(body.notBefore) || !isString(body.notAfter) || Number.isNaN(Date.parse(body.notBefore)) || Number.isNaN(Date.parse(body.notAfter))) return null;
  const key = body.publicKey as JsonWebKey | undefined;
  if (!key || key.kty !== "EC" || key.crv !== "P-256" || !isString(key.x) || !isString(key.y)) return null;
  return body as unknown as CertificateBody;
}

export function readEncryptedKey(text: string): EncryptedKeyBody | null {
  const body = unarmor(PRIVATE_KEY_LABEL, text);
  if (!body || body.version !== 1 || !isString(body.data)) return null;
  const kdf = body.kdf as EncryptedKeyBody["kdf"] | undefined;
  const cipher = body.cipher as EncryptedKeyBody["cipher"] | undefined;
  if (!kdf || !isString(kdf.name) || !isString(kdf.hash) || !Number.isInteger(kdf.iterations) || !isString(kdf.salt)) return null;
  if (!cipher || !isString(cipher.name) || !isString(cipher.iv)) return null;
  return body as unknown as EncryptedKeyBody;
}

/** The AES-GCM key a certificate password unlocks. */
export async function passwordKey(password: string, kdf: EncryptedKeyBody["kdf"], usage: "encrypt" | "decrypt"): Promise<CryptoKey> {
  const salt = base64Decode(kdf.salt) ?? new Uint8Array(0);
  const base = await crypto.subtle.importKey("raw", new TextEncoder().encode(password), "PBKDF2", false, ["deriveKey"]);
  return crypto.subtle.deriveKey({ name: "PBKDF2", hash: kdf.hash, salt, iterations: kdf.iterations }, base, { name: "AES-GCM", length: 256 }, false, [usage]);
}

export const SIGNATURE_ALGORITHM = { name: "ECDSA", hash: "SHA-256" } as const;
export const KEY_ALGORITHM = { name: "ECDSA", namedCurve: "P-256" } as const;
