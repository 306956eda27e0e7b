import { randomBytes } from "node:crypto";
import type { ServerResponse } from "node:http";
import path from "node:path";
import { parseCertificate, readCertificateFile } from "../../contracts/certificates/certificate-file";
import { identifies } from "../../contracts/certificates/identity";
import { certificateHolder } from "../../contracts/certificates/policies";
import { base64Decode } from "../../contracts/base64url";
import { browserBundle } from "../browser-bundle";
import { isRevoked, issuedBySandboxCa } from "./authority";

/** What a sandbox site's security module posts: the certificate, its signature over the site's challenge, and R. */
export interface CertificateLogin {
  /** signCert.der, standard base64. */
  certificate: string;
  challenge: string;
  /** PKCS#1 v1.5 SHA-256 signature of the challenge, standard base64. */
  signature: string;
  /** R from the key, standard base64, for the identity check. */
  randomNum: string;
}

export type LoginResult = { ok: true; businessNumber: string } | { ok: false; message: string };

const SIGNATURE = { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" } as const;
const refuse = (message: string): LoginResult => ({ ok: false, message });
export const MESSAGES = {
  signature: "전자서명 검증에 실패했습니다. 인증서를 확인해 주십시오.",
  untrusted: "신뢰할 수 없는 인증기관이 발급한 인증서입니다.",
  expired: "인증서의 유효기간이 만료되었습니다. 인증서를 갱신해 주십시오.",
  revoked: "폐지된 인증서입니다. 인증서를 재발급받아 주십시오.",
  notBusiness: "사업자용 인증서가 아닙니다. 사업자 인증서로 로그인해 주십시오.",
  notRegistered: (siteName: string) => `등록되지 않은 인증서입니다. ${siteName}에 인증서를 먼저 등록해 주십시오.`,
} as const;

/** The businesses whose certificates a site has registered, and the site's name for its refusal. */
export interface CertificateMembers {
  businessNumbers: readonly string[];
  siteName: string;
}

/**
 * A site's side of a certificate login, in the order real sites check:
 * the signature over its challenge, the chain to the CA it trusts, validity,
 * revocation (asking the CA), the certificate policy, and finally which of
 * its members the certificate belongs to, by the virtual ID with R.
 */
export async function checkCertificateLogin(login: CertificateLogin, members: CertificateMembers, now = Date.now()): Promise<LoginResult> {
  const der = base64Decode(login.certificate);
  const signature = base64Decode(login.signature);
  const certificate = der && parseCertificate(der);
  const facts = der && readCertificateFile(der);
  if (!certificate || !facts || !signature || !facts.keyUsage?.has("digitalSignature")) return refuse(MESSAGES.signature);
  const publicKey = await crypto.subtle.importKey("spki", facts.publicKey.spki, SIGNATURE, false, ["verify"]).catch(() => null);
  if (!publicKey || !(await crypto.subtle.verify(SIGNATURE, publicKey, signature, new TextEncoder().encode(login.challenge)))) return refuse(MESSAGES.signature);
  if (!(await issuedBySandboxCa(certificate))) return refuse(MESSAGES.untrusted);
  if (now < facts.notBefore.getTime() || now >= facts.notAfter.getTime()) return refuse(MESSAGES.expired);
  if (await isRevoked(certificate.serialNumber.valueBlock.valueHexView)) return refuse(MESSAGES.revoked);
  if (certificateHolder(facts.policies) !== "BUSINESS") return refuse(MESSAGES.notBusiness);
  const randomNum = base64Decode(login.randomNum);
  for (const member of randomNum?.byteLength ? members.businessNumbers : []) {
    if (await identifies(facts.identity, member, randomNum!)) return { ok: true, businessNumber: member };
  }
  return refuse(MESSAGES.notRegistered(members.siteName));
}

const CHALLENGE_TTL_MS = 60_000;

/**
 * A site's one-time login challenges. Each is good once, for a minute; a
 * signed login over any other is refused as a bad signature.
 */
export function challengeBook(members: CertificateMembers) {
  const issued = new Map<string, number>();
  return {
    issue(): string {
      const nonce = randomBytes(24).toString("base64url");
      issued.set(nonce, Date.now());
      return nonce;
    },
    async check(body: Record<string, unknown>): Promise<LoginResult> {
      const nonce = String(body.nonce);
      const issuedAt = issued.get(nonce);
      issued.delete(nonce);
      if (!issuedAt || Date.now() - issuedAt > CHALLENGE_TTL_MS) return refuse(MESSAGES.signature);
      return checkCertificateLogin({ certificate: String(body.certificate ?? ""), challenge: nonce, signature: String(body.signature ?? ""), randomNum: String(body.randomNum ?? "") }, members);
    },
  };
}

/**
 * The page side of a certificate login, for a site's login script: asks the
 * site for a challenge, has the security module sign it with the chosen key
 * file and password, and returns the fields a certificate login posts, or
 * null once it has shown the user why it could not sign.
 */
export const SIGNED_CERTIFICATE_SCRIPT = `
async function signedCertificate(error) {
  const { nonce } = await (await fetch("api/challenge")).json();
  try {
    const signed = await SandboxSecurityModule.signChallenge(document.getElementById("keyFile").value, document.getElementById("certPw").value, nonce);
    return { certificate: document.getElementById("certFile").value.replace(/\\s+/g, ""), nonce, ...signed };
  } catch {
    error.textContent = "인증서 암호가 일치하지 않거나 인증서 파일을 읽을 수 없습니다.";
    return null;
  }
}`;

/** Serves the security module (security-module.ts, bundled) at a site's static/security-module.js. */
export async function serveSecurityModule(res: ServerResponse): Promise<void> {
  const script = await browserBundle(path.join(import.meta.dirname, "security-module.ts"));
  res.writeHead(200, { "Content-Type": "text/javascript; charset=utf-8", "Cache-Control": "no-store" });
  res.end(script);
}
