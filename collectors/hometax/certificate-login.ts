import { type LoginCredential, ProviderFailure } from "../adapter";
import { malformed } from "../kit/failure-text";
import { hometaxFailure } from "./failures";
import { WWW } from "./hosts";
import { readLoginAnswer } from "./login-answer";
import { type Json, PortalClient } from "./portal-client";
import { openCertificate, signedChallenge } from "./signed-challenge";

type CertificateCredential = Extract<LoginCredential, { authMethod: "CERTIFICATE" }>;

/** The login form's fixed fields as the portal's page fills them for a certificate from a disk (S3, S9: `pkcLgnClCd` 04). */
const CERTIFICATE_FORM = { pkcLoginYnImpv: "Y", pkcLgnClCd: "04", ssoStatus: "", portalStatus: "", scrnId: "UTXPPABA01", userScrnRslnXcCnt: "1920", userScrnRslnYcCnt: "1080" };

const FORM = { "Content-Type": "application/x-www-form-urlencoded; charset=UTF-8" };

/** The portal's one-time challenge `pkcEncSsn` (ATXPPZXA001R01; no login needed; never contains `$`, S3). */
async function challenge(client: PortalClient): Promise<string> {
  const answer = await client.action(WWW, "ATXPPZXA001R01", "UTXPPABA01", {});
  const value = answer.pkcEncSsn;
  if (typeof value !== "string" || value.length === 0 || value.length > 8192 || value.includes("$")) throw malformed("ATXPPZXA001R01 answered without a usable pkcEncSsn");
  return value;
}

/** `pubcLogin.do` with a form, on `www` as S1, S3 and S8 send it; its answer is the `nts_loginSystemCallback` script. */
export async function postLoginForm(client: PortalClient, form: Record<string, string>) {
  const answer = await client.request(`${WWW}/pubcLogin.do?domain=hometax.go.kr&mainSys=Y`, { method: "POST", headers: FORM, body: new URLSearchParams(form).toString() });
  return readLoginAnswer(answer.text);
}

/** The portal session's `sessionMap` (`permission.do`, on `www` as S1 and S3 ask it); a login that left none did not happen. */
export async function portalSessionMap(client: PortalClient): Promise<Json> {
  const answer = await client.request(`${WWW}/permission.do?screenId=index_pp`, {
    method: "POST",
    headers: { "Content-Type": "application/xml; charset=UTF-8" },
    body: '<map id="postParam"><popupYn>false</popupYn></map>',
  });
  const sessionMap = (PortalClient.checkResult(PortalClient.json(answer)).resultMsg as Json).sessionMap;
  if (!sessionMap || typeof sessionMap !== "object") throw new ProviderFailure("LOGIN_TRANSIENT", "the portal kept no session after a successful login");
  return sessionMap as Json;
}

/**
 * Certificate login (docs/institutions/hometax.md, "Certificate login"): the certificate is opened and matched to
 * the business here first, so a wrong password or another business's certificate never reaches the portal; then
 * the challenge, signed, posted with the certificate and R, once per serial form while the portal refuses the
 * signature for a reason no rule knows.
 */
export async function certificateLogin(client: PortalClient, credential: CertificateCredential, businessNumber: string | undefined): Promise<void> {
  const certificate = await openCertificate(credential);
  if (businessNumber && !(await certificate.isFor(businessNumber))) throw new ProviderFailure("BUSINESS_NUMBER_MISMATCH", "the certificate's virtual ID is not the workspace's business number");
  await client.request(`${WWW}/`);
  const forms = client.options.serialForms;
  for (const [i, serialForm] of forms.entries()) {
    const logSgnt = await signedChallenge(certificate, await challenge(client), serialForm);
    const answer = await postLoginForm(client, { logSgnt, cert: certificate.pem, randomEnc: certificate.randomEnc, ...CERTIFICATE_FORM });
    if (answer.code === "S" && answer.lgnRsltCd === "01") return;
    const failure = hometaxFailure(answer.errMsg || `login answered code ${answer.code} lgnRsltCd ${answer.lgnRsltCd}`);
    if (failure.code !== "UNKNOWN" || i === forms.length - 1) throw failure;
  }
}
