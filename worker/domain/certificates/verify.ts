import { ApiError } from "../../platform/errors/api-error";
import type { ApiErrorCode } from "../../platform/errors/codes";
import { base64Decode } from "../../../contracts/base64url";
import { type CertificateFile, readCertificateFile } from "../../../contracts/certificates/certificate-file";
import { identifies } from "../../../contracts/certificates/identity";
import { KeyFileError, type KeyFileProblem, openKeyFile } from "../../../contracts/certificates/key-file";
import { OID } from "../../../contracts/certificates/oids";
import { certificateHolder } from "../../../contracts/certificates/policies";

/** The credential fields of a joint certificate: signCert.der and signPri.key as standard base64, and the password. */
export interface CertificateMaterial {
  certificate: string;
  privateKey: string;
  password: string;
}

/** What a credential shows of its certificate: what is printed on its face, nothing secret. */
export interface CertificateFace {
  subject: string;
  issuer: string;
  serialNumber: string;
  notBefore: string;
  notAfter: string;
  /** The subject's common name, for the credential's label. */
  commonName: string | null;
}

/**
 * The holder's name in a Korean certificate's common name: NPKI names end in `()` and the holder's identifier digits
 * (`(주)샌드박스상사()0012345678901234`), which tell a person nothing; any other name is kept whole.
 */
export const holderName = (commonName: string): string => /^(.+?)\(\)\d*$/.exec(commonName)?.[1] ?? commonName;

const KEY_FILE_CODES: Record<KeyFileProblem, ApiErrorCode> = {
  UNREADABLE: "CERT_INVALID",
  UNSUPPORTED: "CERT_ENCRYPTION_UNSUPPORTED",
  WRONG_PASSWORD: "CERT_WRONG_PASSWORD",
};
const SIGNATURE = { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" } as const;

function fail(code: ApiErrorCode): never {
  throw new ApiError(code);
}

/** How soon to try again once the runtime's crypto refused an operation: a passing fault of the isolate, not of the files. */
const CRYPTO_RETRY_SECONDS = 30;

/** The certificate check's version, as a failure report names an adapter's: bumped when the check's crypto changes. */
export const CERTIFICATE_CHECK_VERSION = "certificate-check/1";

/**
 * Web Crypto rejects with a DOMException (`OperationError`, `NotSupportedError`) when it cannot carry out an
 * operation on input that was already read and found well-formed: the runtime's failure, which the user cannot fix,
 * so 503 with Retry-After, and operators get a failure report of the step (which alerts them, worker/domain/alerts/rules.ts).
 * The report keeps the exception's name and message only: Web Crypto's messages never quote a key. Anything else keeps
 * its own path (a bug stays a 500).
 */
const runtimeCryptoFailure =
  (step: string) =>
  (err: unknown): never => {
    if (!(err instanceof DOMException)) throw err;
    throw new ApiError("CERT_CRYPTO_UNAVAILABLE", {
      headers: { "Retry-After": String(CRYPTO_RETRY_SECONDS) },
      report: { surprise: "CERT_CRYPTO_UNAVAILABLE", step, adapterVersion: CERTIFICATE_CHECK_VERSION, detail: `${err.name}: ${err.message}`, url: null, html: null, screenshot: null },
    });
  };

/** The key must be the certificate's: a random challenge it signs verifies under the certificate's public key. */
async function checkKeyPair(certificate: CertificateFile, pkcs8: Uint8Array<ArrayBuffer>): Promise<void> {
  if (certificate.publicKey.algorithm !== OID.rsaEncryption) fail("CERT_INVALID");
  const privateKey = await crypto.subtle.importKey("pkcs8", pkcs8, SIGNATURE, false, ["sign"]).catch(() => fail("CERT_INVALID"));
  const publicKey = await crypto.subtle.importKey("spki", certificate.publicKey.spki, SIGNATURE, false, ["verify"]).catch(() => fail("CERT_INVALID"));
  const challenge = crypto.getRandomValues(new Uint8Array(32));
  const signature = await crypto.subtle.sign(SIGNATURE, privateKey, challenge).catch(runtimeCryptoFailure("key pair: sign"));
  if (!(await crypto.subtle.verify(SIGNATURE, publicKey, signature, challenge).catch(runtimeCryptoFailure("key pair: verify")))) fail("CERT_KEY_PAIR_MISMATCH");
}

/**
 * Checks a joint certificate before it is sealed, in the order a user can
 * fix things: readable files, the key's encryption and password, the key
 * pair, then whether the certificate fits (valid now, a signing
 * certificate, a business holder, R present, and the virtual ID of the
 * workspace's business number when it has one). Errors carry only a code,
 * never a value from the files.
 */
export async function verifyCertificate(material: CertificateMaterial, businessNumber: string | null, now = Date.now()): Promise<CertificateFace> {
  const certificateDer = base64Decode(material.certificate);
  const keyDer = base64Decode(material.privateKey) ?? fail("CERT_INVALID");
  const certificate = (certificateDer && readCertificateFile(certificateDer)) || fail("CERT_INVALID");
  const key = await openKeyFile(keyDer, material.password).catch((err: unknown) => {
    if (err instanceof KeyFileError) fail(KEY_FILE_CODES[err.problem]);
    return runtimeCryptoFailure("key file: decrypt")(err);
  });
  await checkKeyPair(certificate, key.pkcs8);

  if (now < certificate.notBefore.getTime() || now >= certificate.notAfter.getTime()) fail("CERT_EXPIRED");
  // No key usage extension means no restriction (RFC 5280); a kmCert says keyEncipherment only.
  if (certificate.keyUsage && !certificate.keyUsage.has("digitalSignature")) fail("CERT_KEY_USAGE_INVALID");
  if (certificateHolder(certificate.policies) !== "BUSINESS") fail("CERT_TYPE_UNSUPPORTED");
  // Without R nobody can tell whose certificate it is: institutions ask for it at login.
  const randomNum = key.randomNum ?? fail("CERT_R_VALUE_NOT_FOUND");
  if (businessNumber !== null && !(await identifies(certificate.identity, businessNumber, randomNum).catch(runtimeCryptoFailure("virtual ID")))) fail("CERT_BIZNO_MISMATCH");
  return faceOf(certificate);
}

function faceOf(certificate: CertificateFile): CertificateFace {
  return {
    subject: certificate.subject,
    issuer: certificate.issuer,
    serialNumber: certificate.serialNumber,
    notBefore: certificate.notBefore.toISOString(),
    notAfter: certificate.notAfter.toISOString(),
    commonName: certificate.commonName,
  };
}

/** The face of a certificate file (base64 DER) already sealed as a credential, read without checking it again; null if unreadable. */
export function storedCertificateFace(certificateBase64: string): CertificateFace | null {
  const der = base64Decode(certificateBase64);
  const certificate = der && readCertificateFile(der);
  return certificate ? faceOf(certificate) : null;
}
