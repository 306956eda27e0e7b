import { base64Encode } from "../collectors/lib/base64url";
import {
  armor,
  CERTIFICATE_LABEL,
  type CertificateBody,
  type EncryptedKeyBody,
  KEY_ALGORITHM,
  PBKDF2_MAX_ITERATIONS,
  PRIVATE_KEY_LABEL,
  passwordKey,
} from "../collectors/certificates/sandbox-format";

export interface SandboxCertificateOptions {
  businessNumber?: string | null;
  commonName?: string;
  certificateType?: CertificateBody["certificateType"];
  keyUsage?: string[];
  notBefore?: Date;
  notAfter?: Date;
  password?: string;
  /** Encrypt the key under other KDF settings (to test refusal). */
  kdf?: Partial<EncryptedKeyBody["kdf"]>;
}

export interface SandboxCertificate {
  certificate: string;
  privateKey: string;
  password: string;
}

const DAY = 86_400_000;

/**
 * Issues a certificate and password-encrypted key in the sandbox format
 * (docs/sandbox-certificates.md), for tests and local trials. WebCrypto
 * only, so it runs in Node, workerd and the browser alike.
 */
export async function issueSandboxCertificate(options: SandboxCertificateOptions = {}): Promise<SandboxCertificate> {
  const password = options.password ?? "cert-pass-1!";
  const pair = (await crypto.subtle.generateKey(KEY_ALGORITHM, true, ["sign", "verify"])) as CryptoKeyPair;
  const { kty, crv, x, y } = (await crypto.subtle.exportKey("jwk", pair.publicKey)) as JsonWebKey;
  const now = Date.now();
  const body: CertificateBody = {
    version: 1,
    serialNumber: Array.from(crypto.getRandomValues(new Uint8Array(8)), (b) => b.toString(16).padStart(2, "0")).join(""),
    subject: { commonName: options.commonName ?? "(주)샌드박스상사", businessNumber: options.businessNumber === undefined ? "1208800767" : options.businessNumber },
    certificateType: options.certificateType ?? "BUSINESS",
    keyUsage: options.keyUsage ?? ["digitalSignature", "nonRepudiation"],
    notBefore: (options.notBefore ?? new Date(now - DAY)).toISOString(),
    notAfter: (options.notAfter ?? new Date(now + 365 * DAY)).toISOString(),
    publicKey: { kty, crv, x, y },
  };
  const kdf = { name: "PBKDF2", hash: "SHA-256", iterations: PBKDF2_MAX_ITERATIONS, salt: base64Encode(crypto.getRandomValues(new Uint8Array(16))), ...options.kdf };
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const pkcs8 = (await crypto.subtle.exportKey("pkcs8", pair.privateKey)) as ArrayBuffer;
  const key = await passwordKey(password, { ...kdf, iterations: Math.min(kdf.iterations, PBKDF2_MAX_ITERATIONS) }, "encrypt");
  const data = new Uint8Array(await crypto.subtle.encrypt({ name: "AES-GCM", iv }, key, pkcs8));
  const encrypted: EncryptedKeyBody = { version: 1, kdf, cipher: { name: "AES-GCM", iv: base64Encode(iv) }, data: base64Encode(data) };
  return { certificate: armor(CERTIFICATE_LABEL, body), privateKey: armor(PRIVATE_KEY_LABEL, encrypted), password };
}
