import type { BrowserPage, LoginCredential } from "../adapter";
import type { FailureRules } from "./failure-text";
import { fill, press } from "./page-state";

/**
 * Fills and submits the certificate login form of the sandbox sites (the
 * tax portal, the card issuer), where their shared security module opens
 * the key with the password and signs the site's challenge inside the page.
 * The files (base64) go in by script; the key reaches only this browser
 * session, never a URL or a log.
 */
export async function submitCertificateForm(page: BrowserPage, credential: Extract<LoginCredential, { authMethod: "CERTIFICATE" }>): Promise<void> {
  await page.evaluate(`document.getElementById("certFile").value = ${JSON.stringify(credential.certificate)}; document.getElementById("keyFile").value = ${JSON.stringify(credential.privateKey)};`);
  await fill(page, "#certPw", credential.password);
  await press(page, "#btnCertLogin");
}

/** What the sandbox sites' certificate login says when it refuses, shared by their security module and their checks. */
export const CERTIFICATE_LOGIN_RULES: FailureRules = [
  [/인증서 암호가 일치하지 않거나/, "LOGIN_FAILED"],
  [/등록되지 않은 인증서/, "CERT_NOT_REGISTERED_AT_PROVIDER"],
  [/유효기간이 만료|전자서명 검증에 실패|폐지된 인증서|신뢰할 수 없는 인증기관|사업자용 인증서가 아닙니다/, "CERT_INVALID"],
];
