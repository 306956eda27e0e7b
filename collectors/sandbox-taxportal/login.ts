import type { AdapterContext, BrowserPage, LoginCredential } from "../adapter";
import { ProviderFailure } from "../adapter";
import { open, settle } from "../page-state";
import { failureFromText } from "./failures";

type IdLogin = Extract<LoginCredential, { authMethod: "PROVIDER_LOGIN" }>;
type CertificateLogin = Extract<LoginCredential, { authMethod: "CERTIFICATE" }>;

/**
 * ID login: ID, password and, when the credential has it, the first 7 digits of the resident number. The
 * adapter never decides a second factor is missing: the portal says so, and that message is the failure.
 */
async function signInById(page: BrowserPage, credential: IdLogin): Promise<void> {
  await page.type("#userId", credential.loginId);
  await page.type("#userPw", credential.password);
  if (credential.secondFactor) await page.type("#residentPrefix", credential.secondFactor);
  await page.click("#btnIdLogin");
}

/**
 * Certificate login: the files (base64) go where the portal takes them, and the portal's security module
 * opens the key with the password and signs its challenge inside the page. The key reaches only this
 * browser session, never a log: it travels in the page script, not in any URL or message.
 */
async function signInByCertificate(page: BrowserPage, credential: CertificateLogin): Promise<void> {
  await page.evaluate(`document.getElementById("certFile").value = ${JSON.stringify(credential.certificate)}; document.getElementById("keyFile").value = ${JSON.stringify(credential.privateKey)};`);
  await page.type("#certPw", credential.password);
  await page.click("#btnCertLogin");
}

/** The portal shows whose account is signed in; collecting another business's documents would hand them to the wrong workspace. */
async function ensureBusiness(page: BrowserPage, ctx: AdapterContext): Promise<void> {
  if (!ctx.businessNumber) return;
  const shown = (await page.evaluate(`document.getElementById("memberBusinessNumber")?.textContent ?? ""`)) as string;
  if (shown.replace(/\D/g, "") !== ctx.businessNumber) throw new ProviderFailure("BUSINESS_NUMBER_MISMATCH", `the portal account is of business ${shown || "(not shown)"}`);
}

export async function login(page: BrowserPage, credential: LoginCredential, ctx: AdapterContext): Promise<void> {
  await open(page, new URL("login", ctx.baseUrl).toString(), ctx);
  // The buttons work once the portal's security module and login script have loaded.
  await settle(page, `!!document.querySelector("#btnIdLogin[data-ready]") && !!document.querySelector("#btnCertLogin[data-ready]")`, ctx, failureFromText);
  if (credential.authMethod === "CERTIFICATE") await signInByCertificate(page, credential);
  else await signInById(page, credential);
  await settle(page, `location.pathname.endsWith("/inquiry") && !!document.querySelector("#btnInquiry")`, ctx, failureFromText);
  await ensureBusiness(page, ctx);
}
