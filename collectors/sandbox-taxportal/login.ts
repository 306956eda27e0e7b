import type { AdapterContext, BrowserPage, LoginCredential } from "../adapter";
import { ProviderFailure } from "../adapter";
import { submitCertificateForm } from "../kit/certificate-form";
import { fill, open, press, settle } from "../kit/page-state";
import { failureFromText } from "./failures";

type IdLogin = Extract<LoginCredential, { authMethod: "PROVIDER_LOGIN" }>;

/**
 * ID login: ID, password and, when the credential has it, the first 7 digits of the resident number. The
 * adapter never decides a second factor is missing: the portal says so, and that message is the failure.
 */
async function signInById(page: BrowserPage, credential: IdLogin): Promise<void> {
  await fill(page, "#userId", credential.loginId);
  await fill(page, "#userPw", credential.password);
  if (credential.secondFactor) await fill(page, "#residentPrefix", credential.secondFactor);
  await press(page, "#btnIdLogin");
}

/** The portal shows whose account is signed in; collecting another business's documents would hand them to the wrong workspace. */
async function ensureBusiness(page: BrowserPage, ctx: AdapterContext): Promise<void> {
  if (!ctx.businessNumber) return;
  const shown = (await page.evaluate(`document.getElementById("memberBusinessNumber")?.textContent ?? ""`)) as string;
  if (shown.replace(/\D/g, "") !== ctx.businessNumber) throw new ProviderFailure("BUSINESS_NUMBER_MISMATCH", `the portal account is of business ${shown || "(not shown)"}`);
}

export async function login(page: BrowserPage, credential: LoginCredential, ctx: AdapterContext): Promise<void> {
  if (credential.authMethod === "OPEN_BANKING" || credential.authMethod === "SIMPLE_AUTH") throw new ProviderFailure("NO_VALID_CREDENTIAL", "the tax portal takes an ID login or a certificate");
  await open(page, new URL("login", ctx.baseUrl).toString(), ctx);
  // The buttons work once the portal's security module and login script have loaded.
  await settle(page, `!!document.querySelector("#btnIdLogin[data-ready]") && !!document.querySelector("#btnCertLogin[data-ready]")`, ctx, failureFromText);
  if (credential.authMethod === "CERTIFICATE") await submitCertificateForm(page, credential);
  else await signInById(page, credential);
  await settle(page, `location.pathname.endsWith("/inquiry") && !!document.querySelector("#btnInquiry")`, ctx, failureFromText);
  await ensureBusiness(page, ctx);
}
