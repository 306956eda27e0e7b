import { ApiError } from "../errors/api-error";
import type { ApiErrorCode } from "../errors/codes";
import { base64Decode } from "../../collectors/lib/base64url";
import {
  type CertificateBody,
  KEY_ALGORITHM,
  PBKDF2_MAX_ITERATIONS,
  PBKDF2_MIN_ITERATIONS,
  passwordKey,
  readCertificate,
  readEncryptedKey,
  SIGNATURE_ALGORITHM,
} from "../../collectors/certificates/sandbox-format";

export interface CertificateMaterial {
  certificate: string;
  privateKey: string;
  password: string;
}

/** Which certificate types identify a business (사업자/법인 인증서). */
const BUSINESS_TYPES: ReadonlySet<CertificateBody["certificateType"]> = new Set(["BUSINESS", "CORPORATE"]);

function fail(code: ApiErrorCode): never {
  throw new ApiError(code);
}

/**
 * Checks a certificate before it is sealed, in the order a user can fix
 * things: readable files, the password, the key pair, then whether the
 * certificate fits (expiry, signing use, business type, business number).
 * `businessNumber` is the workspace's, when it has one. Errors carry only a
 * code, never a value from the files.
 */
export async function verifyCertificate(material: CertificateMaterial, businessNumber: string | null, now = Date.now()): Promise<CertificateBody> {
  const certificate = readCertificate(material.certificate) ?? fail("CERT_INVALID");
  const encrypted = readEncryptedKey(material.privateKey) ?? fail("CERT_INVALID");
  const { kdf, cipher } = encrypted;
  const supported =
    kdf.name === "PBKDF2" && kdf.hash === "SHA-256" && kdf.iterations >= PBKDF2_MIN_ITERATIONS && kdf.iterations <= PBKDF2_MAX_ITERATIONS && cipher.name === "AES-GCM";
  if (!supported) fail("CERT_ENCRYPTION_UNSUPPORTED");

  const iv = base64Decode(cipher.iv);
  const data = base64Decode(encrypted.data);
  if (!iv || iv.byteLength !== 12 || !data || !base64Decode(kdf.salt)) fail("CERT_INVALID");
  let pkcs8: ArrayBuffer;
  try {
    pkcs8 = await crypto.subtle.decrypt({ name: "AES-GCM", iv }, await passwordKey(material.password, kdf, "decrypt"), data);
  } catch {
    // GCM authenticates: with a well-formed file, a failed open means a wrong password.
    return fail("CERT_WRONG_PASSWORD");
  }

  const privateKey = await crypto.subtle.importKey("pkcs8", pkcs8, KEY_ALGORITHM, false, ["sign"]).catch(() => fail("CERT_INVALID"));
  const publicKey = await crypto.subtle.importKey("jwk", certificate.publicKey, KEY_ALGORITHM, false, ["verify"]).catch(() => fail("CERT_INVALID"));
  const challenge = crypto.getRandomValues(new Uint8Array(32));
  const signature = await crypto.subtle.sign(SIGNATURE_ALGORITHM, privateKey, challenge);
  if (!(await crypto.subtle.verify(SIGNATURE_ALGORITHM, publicKey, signature, challenge))) fail("CERT_KEY_PAIR_MISMATCH");

  if (now < Date.parse(certificate.notBefore) || now >= Date.parse(certificate.notAfter)) fail("CERT_EXPIRED");
  if (!certificate.keyUsage.includes("digitalSignature")) fail("CERT_KEY_USAGE_INVALID");
  if (!BUSINESS_TYPES.has(certificate.certificateType)) fail("CERT_TYPE_UNSUPPORTED");
  if (businessNumber !== null && certificate.subject.businessNumber !== businessNumber) fail("CERT_BIZNO_MISMATCH");
  return certificate;
}
