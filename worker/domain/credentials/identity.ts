import type { LoginCredential } from "../../../contracts/task-unit";
import type { CertificateFace } from "../certificates/verify";
import { sha256Hex } from "../../platform/lib/crypto";

/** The provider code a certificate registered for every provider that takes certificates is stored under. */
export const GLOBAL_PROVIDER = "*";

/**
 * What makes two registrations the same credential: a certificate's issuer and serial (whatever provider it is
 * registered for), or a login id at one provider. A login id is personal data, so only its hash sits beside the
 * row; the masked label is what people see.
 */
export async function credentialIdentity(providerCode: string, credential: LoginCredential, certificate: CertificateFace | null): Promise<string> {
  if (credential.authMethod === "PROVIDER_LOGIN") return `login:${await sha256Hex(`${providerCode}\n${credential.loginId}`)}`;
  // A consent is one person (KFTC's user_seq_no) at one 이용기관: consenting again supersedes it.
  if (credential.authMethod === "OPEN_BANKING") return `consent:${await sha256Hex(`${providerCode}\n${credential.clientUseCode}\n${credential.userSeqNo}`)}`;
  // A 간편인증 login is one person at one app: registering them again (a new phone number, say) supersedes it.
  if (credential.authMethod === "SIMPLE_AUTH") return `simple-auth:${await sha256Hex(`${providerCode}\n${credential.provider}\n${credential.name}\n${credential.birthDate}`)}`;
  if (!certificate) throw new Error("a certificate credential's identity needs its checked face");
  return certificateIdentity(certificate);
}

/** A certificate's identity: its issuer and serial, whatever provider it is registered for. */
export function certificateIdentity(certificate: Pick<CertificateFace, "issuer" | "serialNumber">): string {
  return `certificate:${certificate.issuer}#${certificate.serialNumber}`;
}
