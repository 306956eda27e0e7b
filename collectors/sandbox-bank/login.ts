import type { AdapterContext, BrowserPage, LoginCredential } from "../adapter";
import { ProviderFailure } from "../adapter";
import { fill, open, press, settle } from "../kit/page-state";
import { BANK_PAGES, failureFromText } from "./failures";

export async function login(page: BrowserPage, credential: LoginCredential, ctx: AdapterContext): Promise<void> {
  if (credential.authMethod !== "PROVIDER_LOGIN") throw new ProviderFailure("NO_VALID_CREDENTIAL", "the bank takes ID login only");
  await open(page, new URL("login", ctx.baseUrl).toString(), ctx);
  await settle(page, `!!document.querySelector("#btnLogin")`, ctx, failureFromText);
  await fill(page, "#userId", credential.loginId);
  await fill(page, "#userPw", credential.password);
  await press(page, "#btnLogin");
  await settle(page, `location.pathname.endsWith("/accounts") && document.querySelector("#accountList")?.dataset.state === "done"`, ctx, failureFromText, BANK_PAGES);
}
