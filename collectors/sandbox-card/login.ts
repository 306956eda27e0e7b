import { type AdapterContext, type BrowserPage, type LoginCredential, ProviderFailure } from "../adapter";
import { submitCertificateForm } from "../kit/certificate-form";
import { malformed } from "../kit/failure-text";
import { fill, open, press, settle } from "../kit/page-state";
import { CARD_LIST_READY } from "./cards";
import { failureFromText } from "./failures";
import { closeNoticeLayer } from "./notice-layer";

/**
 * Where a login can land. The pages between the password and the card list
 * come in any order or not at all; the ones that can be dismissed are, the
 * ones that cannot show a notice that settle() turns into the failure.
 */
const LANDINGS = {
  cardList: CARD_LIST_READY,
  passwordReminder: `location.pathname.endsWith("/password-reminder") && !!document.querySelector("#btnLater")`,
  securityGuide: `location.pathname.endsWith("/security") && !!document.querySelector("#btnSkipInstall")`,
} as const;
type Landing = keyof typeof LANDINGS;

// "다음에 변경" and "설치하지 않고 이용하기": never "지금 변경" or an install.
const DISMISS: Record<Exclude<Landing, "cardList">, string> = { passwordReminder: "#btnLater", securityGuide: "#btnSkipInstall" };

/** More pages than this between the password and the card list means the site is not what the adapter knows. */
const MAX_GUIDE_PAGES = 4;

const anyLanding = Object.values(LANDINGS).map((expression) => `(${expression})`).join(" || ");
const whichLanding = `${Object.entries(LANDINGS).map(([name, expression]) => `(${expression}) ? "${name}" : `).join("")}null`;

/** The ID tab, or the business-certificate tab whose security module signs the site's challenge; both lead to the same pages. */
async function signIn(page: BrowserPage, credential: LoginCredential, ctx: AdapterContext): Promise<void> {
  if (credential.authMethod === "OPEN_BANKING" || credential.authMethod === "SIMPLE_AUTH") throw new ProviderFailure("NO_VALID_CREDENTIAL", "the card issuer takes an ID login or a certificate");
  await open(page, new URL("login", ctx.baseUrl).toString(), ctx);
  // The certificate tab works once the site's security module and login script have loaded.
  await settle(page, `!!document.querySelector("#btnIdLogin") && !!document.querySelector("#btnCertLogin[data-ready]")`, ctx, failureFromText);
  if (credential.authMethod === "CERTIFICATE") {
    await press(page, "#tabCertLogin");
    return submitCertificateForm(page, credential);
  }
  await fill(page, "#custId", credential.loginId);
  await fill(page, "#custPw", credential.password);
  await press(page, "#btnIdLogin");
}

export async function login(page: BrowserPage, credential: LoginCredential, ctx: AdapterContext): Promise<void> {
  await signIn(page, credential, ctx);
  for (let step = 0; step <= MAX_GUIDE_PAGES; step++) {
    await settle(page, anyLanding, ctx, failureFromText);
    const landing = (await page.evaluate(whichLanding)) as Landing;
    if (landing === "cardList") return closeNoticeLayer(page, ctx);
    await press(page, DISMISS[landing]);
    // Gone from the page it dismissed, so the next look is at where the site went.
    await settle(page, `!(${LANDINGS[landing]})`, ctx, failureFromText);
  }
  throw malformed("no card list after the pages that follow login");
}
