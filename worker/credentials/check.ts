import { verifyCertificate } from "../certificates/verify";
import type { LoginCredential } from "../../collectors/adapter";

/**
 * What a credential's field patterns cannot show, checked before it is
 * sealed: a certificate must open with its password, match its key and
 * belong to the workspace's business (422 CERT_* codes). An ID login is
 * only proved by a job, so it passes as it is.
 */
export async function checkCredential(credential: LoginCredential, businessNumber: string | null): Promise<void> {
  if (credential.authMethod === "CERTIFICATE") await verifyCertificate(credential, businessNumber);
}
