import { readCertificateFile } from "../../contracts/certificates/certificate-file";
import { identifies } from "../../contracts/certificates/identity";
import { KeyFileError, openKeyFile } from "../../contracts/certificates/key-file";
import { ProviderFailure, type LoginCredential } from "../adapter";
import { base64Decode, base64Encode } from "../../contracts/base64url";
import { kstStamp } from "../../contracts/korean-time";

type CertificateCredential = Extract<LoginCredential, { authMethod: "CERTIFICATE" }>;

/**
 * How the serial number is written in `logSgnt` (docs/institutions/hometax.md, "Open questions"): `bytes` is the
 * big-endian bytes in lower-case hex (S3, S5); `prefixed` is the integer's hex after a "0" (S1: Python's `hex()`
 * with the "x" removed). No source says which the portal checks; the login tries them in the configured order.
 */
export type SerialForm = "bytes" | "prefixed";

/** The parts of a certificate login that never change within a job: opened once, before the portal is asked anything. */
export interface OpenedCertificate {
  /** signCert.der as PEM text, the `cert` field. */
  pem: string;
  /** The key's KISA random value R in base64, the `randomEnc` field. */
  randomEnc: string;
  serial: Record<SerialForm, string>;
  sign(data: Uint8Array<ArrayBuffer>): Promise<Uint8Array>;
  /** Whether the certificate's virtual ID is this business number's (KISA identifyData with R): no portal needed. */
  isFor(businessNumber: string): Promise<boolean>;
}

const SIGNATURE = { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" } as const;

function pem(der: Uint8Array): string {
  const lines = base64Encode(der).match(/.{1,64}/g) ?? [];
  return `-----BEGIN CERTIFICATE-----\n${lines.join("\n")}\n-----END CERTIFICATE-----\n`;
}

/**
 * Opens the credential's certificate locally: a wrong password, an unreadable or expired certificate, or a key
 * without R never reaches the portal (LOGIN_FAILED for the password, as the credential must be registered
 * again; CERT_INVALID for the rest).
 */
export async function openCertificate(credential: CertificateCredential, now = Date.now()): Promise<OpenedCertificate> {
  const der = base64Decode(credential.certificate);
  const keyDer = base64Decode(credential.privateKey);
  const certificate = der && readCertificateFile(der);
  if (!der || !keyDer || !certificate) throw new ProviderFailure("CERT_INVALID", "certificate or key file unreadable");
  if (now < certificate.notBefore.getTime() || now >= certificate.notAfter.getTime()) throw new ProviderFailure("CERT_INVALID", "certificate expired or not yet valid");
  let opened;
  try {
    opened = await openKeyFile(keyDer, credential.password);
  } catch (err) {
    if (err instanceof KeyFileError && err.problem === "WRONG_PASSWORD") throw new ProviderFailure("LOGIN_FAILED", "certificate password does not open the key");
    throw new ProviderFailure("CERT_INVALID", "key file unreadable");
  }
  if (!opened.randomNum?.byteLength) throw new ProviderFailure("CERT_INVALID", "the key file carries no R (randomEnc)");
  const key = await crypto.subtle.importKey("pkcs8", opened.pkcs8, SIGNATURE, false, ["sign"]).catch(() => {
    throw new ProviderFailure("CERT_INVALID", "key is not an RSA signing key");
  });
  const minimal = BigInt(`0x${certificate.serialNumber}`).toString(16);
  return {
    pem: pem(der),
    randomEnc: base64Encode(opened.randomNum),
    serial: { bytes: certificate.serialNumber, prefixed: `0${minimal}` },
    sign: async (data) => new Uint8Array(await crypto.subtle.sign(SIGNATURE, key, data)),
    isFor: (businessNumber) => identifies(certificate.identity, businessNumber, opened.randomNum!),
  };
}

/** `logSgnt`: base64 of challenge `$` serial `$` KST time `$` base64(PKCS#1 v1.5 SHA-256 signature of the challenge). */
export async function signedChallenge(certificate: OpenedCertificate, challenge: string, serialForm: SerialForm, now = Date.now()): Promise<string> {
  const signature = await certificate.sign(new Uint8Array(new TextEncoder().encode(challenge)));
  const text = [challenge, certificate.serial[serialForm], kstStamp(now), base64Encode(signature)].join("$");
  return base64Encode(new TextEncoder().encode(text));
}
