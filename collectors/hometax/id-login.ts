import { type LoginCredential, ProviderFailure } from "../adapter";
import { malformed } from "../kit/failure-text";
import { base64Encode } from "../../contracts/base64url";
import { hometaxFailure } from "./failures";
import { PORTAL, WWW } from "./hosts";
import type { LoginAnswer } from "./login-answer";
import { postLoginForm } from "./certificate-login";
import { takeNetFunnelTicket } from "./netfunnel";
import type { PortalClient } from "./portal-client";

type IdCredential = Extract<LoginCredential, { authMethod: "PROVIDER_LOGIN" }>;

const b64 = (text: string) => base64Encode(new TextEncoder().encode(text));

/** The ID form's fixed fields (S2 `login_to_hometax`, 2026-05 captures). */
const ID_FORM = { ssoLoginYn: "Y", secCardLoginYn: "", secCardId: "", cncClCd: "01", ssoStatus: "", portalStatus: "", scrnId: "UTXPPABA01", userScrnRslnXcCnt: "1920", userScrnRslnYcCnt: "1080" };

/** A refused ID login: a counted wrong password is the credential's fault, anything else as the portal says it. */
function refusal(answer: LoginAnswer, secondStep: boolean): ProviderFailure {
  if (Number(answer.pswdErrNbcnt) > 0) return new ProviderFailure(secondStep ? "LOGIN_CREDENTIALS_MISMATCH" : "LOGIN_FAILED", answer.errMsg || "wrong password");
  return hometaxFailure(answer.errMsg || `login answered code ${answer.code} lgnRsltCd ${answer.lgnRsltCd}`);
}

/**
 * ID login as the 2026 page does it (S2): the R07 pre-check answers the values the form then carries, and a
 * `lgnRsltCd` of 30 asks for the first 7 digits of the resident number; between the pre-check and the form, the
 * page's NetFunnel ticket (S2 order). Unverified against the live portal's form protection
 * (docs/institutions/hometax.md, "Unverified").
 */
export async function idLogin(client: PortalClient, credential: IdCredential): Promise<void> {
  await client.request(`${WWW}/`);
  const checked = await client.action(PORTAL, "ATXPPABA001R07", "UTXPPABA01", { pswd: b64(credential.password), id: b64(`${[...credential.loginId].join(",")},`) });
  if (typeof checked.id !== "string" || typeof checked.pswd !== "string" || !checked.id || !checked.pswd) throw malformed("ATXPPABA001R07 answered without id and pswd");
  const form = { ...ID_FORM, id: b64(checked.id), pswd: b64(checked.pswd) };
  await takeNetFunnelTicket(client, "public_m_id_login");
  let answer = await postLoginForm(client, form);
  if (answer.code === "S" && answer.lgnRsltCd === "30") {
    if (!credential.secondFactor) throw new ProviderFailure("LOGIN_SECOND_FACTOR_REQUIRED", "the portal asks for the resident-number prefix");
    await client.request(`${PORTAL}/permission.do?screenId=UTXPPABC12`, { method: "POST", headers: { "Content-Type": "application/json; charset=UTF-8" }, body: "{}" });
    answer = await postLoginForm(client, { ...form, txprDscmNo: b64(credential.secondFactor), pkcLoginYn: "N", sq2LgnYn: "Y", sq2LgnCertYn: answer.sq2LgnCertYn ?? "" });
    if (answer.code !== "S" || answer.lgnRsltCd !== "01") throw refusal(answer, true);
    return;
  }
  if (answer.code !== "S" || answer.lgnRsltCd !== "01") throw refusal(answer, false);
}
