import { type CertificateFace, verifyCertificate } from "../certificates/verify";
import type { LoginCredential } from "../../../contracts/task-unit";

/**
 * What a credential's field patterns cannot show, checked before it is
 * sealed: a certificate must open with its password, match its key and
 * belong to the workspace's business (422 CERT_* codes); its face is
 * returned to be shown with the credential. An ID login is only proved by
 * a job, so it passes as it is.
 */
export async function checkCredential(credential: LoginCredential, businessNumber: string | null): Promise<CertificateFace | null> {
  return credential.authMethod === "CERTIFICATE" ? verifyCertificate(credential, businessNumber) : null;
}
