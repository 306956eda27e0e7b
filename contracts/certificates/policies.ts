/**
 * Certificate policy OIDs of the accredited (now "joint") certification
 * authorities, by who may hold the certificate. A certificate's policy is
 * the only reliable sign of whether it belongs to a business: subject names
 * differ from CA to CA. Sources for each entry: docs/certificates.md.
 */
export type CertificateHolder = "BUSINESS" | "PERSONAL";

export interface CertificatePolicy {
  holder: CertificateHolder;
  /** The CA's brand and what the certificate is for, as the CAs name them. */
  description: string;
}

export const ACCREDITED_POLICIES: Readonly<Record<string, CertificatePolicy>> = {
  // 금융결제원 (yessign)
  "1.2.410.200005.1.1.1": { holder: "PERSONAL", description: "yessign 개인 범용" },
  "1.2.410.200005.1.1.4": { holder: "PERSONAL", description: "yessign 개인 은행·신용카드·보험용" },
  "1.2.410.200005.1.1.5": { holder: "BUSINESS", description: "yessign 법인·개인사업자 범용" },
  "1.2.410.200005.1.1.2": { holder: "BUSINESS", description: "yessign 법인 은행·신용카드·보험용" },
  "1.2.410.200005.1.1.6.1": { holder: "BUSINESS", description: "yessign 기업뱅킹용" },
  "1.2.410.200005.1.1.6.8": { holder: "BUSINESS", description: "yessign 전자세금계산서용" },
  // 한국정보인증 (signGATE)
  "1.2.410.200004.5.2.1.2": { holder: "PERSONAL", description: "signGATE 개인 범용" },
  "1.2.410.200004.5.2.1.7.1": { holder: "PERSONAL", description: "signGATE 개인 은행·보험용" },
  "1.2.410.200004.5.2.1.7.2": { holder: "PERSONAL", description: "signGATE 개인 증권·보험용" },
  "1.2.410.200004.5.2.1.7.3": { holder: "PERSONAL", description: "signGATE 개인 신용카드용" },
  "1.2.410.200004.5.2.1.1": { holder: "BUSINESS", description: "signGATE 법인 범용" },
  // 코스콤 (SignKorea)
  "1.2.410.200004.5.1.1.5": { holder: "PERSONAL", description: "SignKorea 개인 범용" },
  "1.2.410.200004.5.1.1.9": { holder: "PERSONAL", description: "SignKorea 개인 증권·보험용" },
  "1.2.410.200004.5.1.1.9.2": { holder: "PERSONAL", description: "SignKorea 개인 신용카드용" },
  "1.2.410.200004.5.1.1.7": { holder: "BUSINESS", description: "SignKorea 법인·단체·개인사업자 범용" },
  // 한국전자인증 (CrossCert)
  "1.2.410.200004.5.4.1.1": { holder: "PERSONAL", description: "CrossCert 개인 범용" },
  "1.2.410.200004.5.4.1.101": { holder: "PERSONAL", description: "CrossCert 개인 은행·보험용" },
  "1.2.410.200004.5.4.1.102": { holder: "PERSONAL", description: "CrossCert 개인 증권용" },
  "1.2.410.200004.5.4.1.103": { holder: "PERSONAL", description: "CrossCert 개인 신용카드용" },
  "1.2.410.200004.5.4.1.104": { holder: "PERSONAL", description: "CrossCert 개인 전자민원용" },
  "1.2.410.200004.5.4.1.2": { holder: "BUSINESS", description: "CrossCert 법인·단체·개인사업자 범용" },
  // 한국무역정보통신 (TradeSign)
  "1.2.410.200012.1.1.1": { holder: "PERSONAL", description: "TradeSign 개인 범용" },
  "1.2.410.200012.1.1.101": { holder: "PERSONAL", description: "TradeSign 개인 은행·보험용" },
  "1.2.410.200012.1.1.103": { holder: "PERSONAL", description: "TradeSign 개인 증권용" },
  "1.2.410.200012.1.1.105": { holder: "PERSONAL", description: "TradeSign 개인 신용카드용" },
  "1.2.410.200012.1.1.3": { holder: "BUSINESS", description: "TradeSign 법인 범용" },
};

/** Who may hold a certificate with these policies; null when none is an accredited CA's. */
export function certificateHolder(policyOids: readonly string[]): CertificateHolder | null {
  const holders = policyOids.map((oid) => ACCREDITED_POLICIES[oid]?.holder).filter((h): h is CertificateHolder => h !== undefined);
  if (holders.includes("BUSINESS")) return "BUSINESS";
  return holders[0] ?? null;
}

