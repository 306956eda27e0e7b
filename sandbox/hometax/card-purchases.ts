import { shownBusinessNumber } from "../../contracts/business-number";

/**
 * The replica's business-card purchases (사업용 신용카드 매입) as rows of `busnCrdcTrsBrkdAdmDVOList`, the answer of
 * `ATECRCCA001R06` on tecr (sheet A4: S1, S8). Amounts go out as the portal's strings, a blank tip as "".
 */
export const CARD_PURCHASES = { actionId: "ATECRCCA001R06", schema: "taxportal.business-card-purchases.v1", listKey: "busnCrdcTrsBrkdAdmDVOList" } as const;

const str = (value: unknown) => (value === null || value === undefined ? "" : String(value));

/**
 * A merchant's number as `mrntTxprDscmNoEncCntn` holds it: a business number `NNN-NN-NNNNN`, or, for a merchant the
 * ground truth has none for, a masked resident number, which the field may hold instead (A4, S3).
 */
const merchantNumber = (businessNumber: unknown) =>
  typeof businessNumber === "string" ? shownBusinessNumber(businessNumber) : "800101-1******";

export function cardPurchaseRow(doc: Record<string, unknown>): Record<string, unknown> {
  return {
    busnCrdcTrsBrkdSn: str(doc.transactionIdentifier),
    // S8 reads aprvDt as YYYY-MM-DD.
    aprvDt: str(doc.transactionDate),
    busnCrdCardNoEncCntn: str(doc.cardNumberMasked),
    crcmClNm: str(doc.cardCompany),
    mrntTxprNm: str(doc.merchantName),
    mrntTxprDscmNoEncCntn: merchantNumber(doc.merchantBusinessIdentifier),
    bmanClNm: str(doc.merchantClassification),
    tfbCd: str(doc.businessTypeCode),
    bcNm: str(doc.businessTypeName),
    tfbNm: str(doc.businessItemName),
    splCft: str(doc.supplyAmount),
    vaTxamt: str(doc.taxAmount),
    tip: str(doc.tip),
    totaTrsAmt: str(doc.totalAmount),
    ddcYnNm: str(doc.deductible),
    vatDdcClCd: str(doc.deductionClassificationCode),
    vatDdcClNm: str(doc.deductionClassificationName),
  };
}
