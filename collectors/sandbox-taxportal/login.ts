import type { AdapterContext, BrowserPage, LoginCredential } from "../adapter";
import { ProviderFailure } from "../adapter";
import { open, settle } from "../page-state";
import { failureFromText } from "./failures";

/** Certificate login: the files go where a user would paste or pick them, the page signs the portal's challenge. */
export async function login(page: BrowserPage, credential: LoginCredential, ctx: AdapterContext): Promise<void> {
  if (credential.authMethod !== "CERTIFICATE") throw new ProviderFailure("NO_VALID_CREDENTIAL", "the tax portal takes certificate login only");
  await open(page, new URL("login", ctx.baseUrl).toString(), ctx);
  await settle(page, `!!document.querySelector("#btnCertLogin")`, ctx, failureFromText);
  await page.evaluate(`document.getElementById("certFile").value = ${JSON.stringify(credential.certificate)}; document.getElementById("keyFile").value = ${JSON.stringify(credential.privateKey)};`);
  await page.type("#certPw", credential.password);
  await page.click("#btnCertLogin");
  await settle(page, `location.pathname.endsWith("/inquiry") && !!document.querySelector("#btnInquiry")`, ctx, failureFromText);
}
