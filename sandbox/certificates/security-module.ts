/**
 * The sandbox sites' certificate security module, as it runs in the browser
 * (served bundled at each site's static/security-module.js). Like real
 * sites' modules it opens the key file with the password in the page,
 * signs the site's challenge and hands over the signature and R (for the
 * site's identity check); the key itself never leaves the page.
 */
import { openKeyFile } from "../../contracts/certificates/key-file";
import { base64Decode, base64Encode } from "../../contracts/base64url";

const SIGNATURE = { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" } as const;

async function signChallenge(privateKey: string, password: string, challenge: string): Promise<{ signature: string; randomNum: string }> {
  const file = base64Decode(privateKey.replace(/\s+/g, ""));
  if (!file) throw new Error("UNREADABLE");
  const opened = await openKeyFile(file, password);
  const key = await crypto.subtle.importKey("pkcs8", opened.pkcs8, SIGNATURE, false, ["sign"]);
  const signature = new Uint8Array(await crypto.subtle.sign(SIGNATURE, key, new TextEncoder().encode(challenge)));
  return { signature: base64Encode(signature), randomNum: opened.randomNum ? base64Encode(opened.randomNum) : "" };
}

(globalThis as unknown as { SandboxSecurityModule: unknown }).SandboxSecurityModule = { signChallenge };
