import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { issueSandboxCertificate } from "../sandbox/certificates";
import { DEMO_BUSINESS_NUMBER } from "./demo-seed";

/**
 * Writes a sandbox business certificate for trying certificate registration
 * by hand (docs/sandbox-certificates.md):
 *   node --import tsx scripts/sandbox-certificate.ts [outDir] [businessNumber]
 * The demo workspace's business number is the default.
 */
const outDir = path.resolve(process.argv[2] ?? "sandbox-certificate");
const businessNumber = process.argv[3] ?? DEMO_BUSINESS_NUMBER;
const cert = await issueSandboxCertificate({ businessNumber });
mkdirSync(outDir, { recursive: true });
writeFileSync(path.join(outDir, "signCert.pem"), cert.certificate);
writeFileSync(path.join(outDir, "signPri.key"), cert.privateKey, { mode: 0o600 });
console.log(`${outDir}/signCert.pem, ${outDir}/signPri.key (business ${businessNumber}); password: ${cert.password}`);
