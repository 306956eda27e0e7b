/**
 * The corporate customers that registered their business certificate with
 * the issuer (once, on the real site, after an ID login), by business
 * number, each with the ID login of the same customer: a certificate login
 * opens that customer's cards, so `cardGroundTruth(loginId)` is its ground
 * truth. 120-88-00767 is the demo workspace's business, whose ID login is
 * `user_good`.
 */
export const CERTIFICATE_CUSTOMERS: Readonly<Record<string, string>> = {
  "1208800767": "user_good",
  "2208162517": "corp_2208162517",
};
