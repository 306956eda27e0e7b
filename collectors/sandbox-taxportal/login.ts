import type { AdapterContext, BrowserPage, LoginCredential } from "../adapter";
import { ProviderFailure } from "../adapter";
import { open, settle } from "../page-state";
import { failureFromText } from "./failures";

/**
 * Certificate login: the files (base64) go where the portal takes them, and the portal's security module
 * opens the key with the password and signs its challenge inside the page. The key reaches only this
 * browser session, never a log: it travels in the page script, not in any URL or message.
 */
export async function login(page: BrowserPage, credential: LoginCredential, ctx: AdapterContext): Promise<void> {
  if (credential.authMethod !== "CERTIFICATE") throw new ProviderFailure("NO_VALID_CREDENTIAL", "the tax portal takes certificate login only");
  await open(page, new URL("login", ctx.baseUrl).toString(), ctx);
  // The button works once the portal's security module and login script have loaded.
  await settle(page, `!!document.querySelector("#btnCertLogin[data-ready]")`, ctx, failureFromText);
  await page.evaluate(`document.getElementById("certFile").value = ${JSON.stringify(credential.certificate)}; document.getElementById("keyFile").value = ${JSON.stringify(credential.privateKey)};`);
  await page.type("#certPw", credential.password);
  await page.click("#btnCertLogin");
  await settle(page, `location.pathname.endsWith("/inquiry") && !!document.querySelector("#btnInquiry")`, ctx, failureFromText);
}
