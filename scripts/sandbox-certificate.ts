import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import type { CertificateHolder } from "../contracts/certificates/policies";
import type { KeyEncryption } from "../contracts/certificates/key-file";
import { issueJointCertificate } from "../sandbox/certificates/issue";
import { DEMO_BUSINESS_NUMBER } from "./demo-seed";

/**
 * Writes joint certificates from the sandbox CA into an NPKI-like folder,
 * for trying certificate registration by hand in the hosted page
 * (docs/certificates.md):
 *
 *   node --import tsx scripts/sandbox-certificate.ts [outDir] [--business 1208800767]
 *     [--personal] [--expired] [--revoked] [--without-r] [--encryption SEED_CBC_WITH_SHA1|PBES2_SEED_CBC|PBES2_AES256_CBC]
 *
 * It writes signCert.der + signPri.key (the signing pair) and kmCert.der +
 * kmPri.key (the encryption-only pair) as a CA hands them out, and prints
 * the password.
 */
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    business: { type: "string", default: DEMO_BUSINESS_NUMBER },
    personal: { type: "boolean", default: false },
    expired: { type: "boolean", default: false },
    revoked: { type: "boolean", default: false },
    "without-r": { type: "boolean", default: false },
    encryption: { type: "string", default: "SEED_CBC_WITH_SHA1" },
  },
});
const outDir = path.resolve(positionals[0] ?? "sandbox-certificate");
const holder: CertificateHolder = values.personal ? "PERSONAL" : "BUSINESS";
const DAY = 86_400_000;
const common = {
  idn: values.personal ? undefined : values.business,
  holder,
  revoked: values.revoked,
  withoutRandomNum: values["without-r"],
  encryption: values.encryption as KeyEncryption,
  ...(values.expired ? { notBefore: new Date(Date.now() - 400 * DAY), notAfter: new Date(Date.now() - DAY) } : {}),
};
const sign = await issueJointCertificate(common);
const km = await issueJointCertificate({ ...common, usage: "encryption", password: sign.password });
mkdirSync(outDir, { recursive: true });
const write = (name: string, base64: string, mode = 0o644) => writeFileSync(path.join(outDir, name), Buffer.from(base64, "base64"), { mode });
write("signCert.der", sign.certificate);
write("signPri.key", sign.privateKey, 0o600);
write("kmCert.der", km.certificate);
write("kmPri.key", km.privateKey, 0o600);
console.log(`${outDir}/{signCert.der,signPri.key,kmCert.der,kmPri.key} (${holder === "BUSINESS" ? `business ${values.business}` : "personal"}); password: ${sign.password}`);
