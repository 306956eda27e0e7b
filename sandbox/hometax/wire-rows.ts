/**
 * The replica's documents in the portal's own field names (docs/institutions/hometax.md, "Wire reference"):
 * list rows of ATEETBDA001R01 and the detail of ATEETBDA001R02 for tax invoices, rows of
 * cshTrsBrkdInqrDVOList for cash receipts. Dates go out as YYYYMMDD, amounts as the portal's strings.
 */
type Doc = Record<string, unknown>;

const compactDate = (value: unknown) => (typeof value === "string" ? value.replace(/-/g, "") : "");
const str = (value: unknown) => (value === null || value === undefined ? "" : String(value));
const PAYMENT_CODES: Record<string, string> = { 영수: "01", 청구: "02" };
export const INVOICE_KINDS: Record<string, string> = { 전자세금계산서: "01", 전자계산서: "03" };

/** "2026-01-05T09:10:11+09:00" as the portal's "2026-01-05 09:10:11" (the sources do not show the exact form). */
const kstTime = (iso: unknown) => str(iso).slice(0, 19).replace("T", " ");

export function invoiceRow(doc: Doc): Doc {
  return {
    etan: `${str(doc.ntsTransactionId).slice(0, 8)}-${str(doc.ntsTransactionId).slice(8, 16)}-${str(doc.ntsTransactionId).slice(16)}`,
    wrtDt: compactDate(doc.writeDate),
    isnDtm: compactDate(doc.issueDate),
    tmsnDt: compactDate(doc.sendDate),
    tnmNm: str(doc.schema === "taxportal.tax-invoices.sales.v1" ? doc.buyerOrganizationName : doc.supplierOrganizationName),
    lsatNm: str(doc.itemName),
    sumSplCft: str(doc.supplyAmount),
    sumTxamt: str(doc.taxAmount),
    totaAmt: str(doc.totalAmount),
    isnTypeCd: str(doc.issueChannel),
  };
}

export function invoiceDetail(doc: Doc): Doc {
  return {
    etxivIsnBrkdTermDVO: {
      etan: str(doc.ntsTransactionId),
      wrtDt: compactDate(doc.writeDate),
      splrTxprDscmNo: str(doc.supplierBusinessIdentifier),
      splrTnmNm: str(doc.supplierOrganizationName),
      splrRprsFnm: str(doc.supplierRepresentativeName),
      splrPfbAdr: str(doc.supplierAddress),
      splrMchrgEmlAdr: str(doc.supplierEmail),
      dmnrTxprDscmNo: str(doc.buyerBusinessIdentifier),
      dmnrTnmNm: str(doc.buyerOrganizationName),
      dmnrRprsFnm: str(doc.buyerRepresentativeName),
      dmnrPfbAdr: str(doc.buyerAddress),
      dmnrMchrgEmlAdr: str(doc.buyerEmail),
      dmnrSchrgEmlAdr: str(doc.buyerEmailSecondary),
      dmnrMpbNo: doc.buyerSubBusinessNumber === null ? "0000" : str(doc.buyerSubBusinessNumber),
      recApeClCd: PAYMENT_CODES[str(doc.paymentType)] ?? "",
      etxivSq1RmrkCntn: str(doc.remark),
      etxivMdfRsnCd: doc.invoiceClassification === "수정" ? "01" : "",
      sumSplCft: str(doc.supplyAmount),
      sumTxamt: str(doc.taxAmount),
      totaAmt: str(doc.totalAmount),
    },
    lsatInfrBizSVOList: [
      {
        lsatSplDt: compactDate(doc.itemSupplyDate),
        lsatNm: str(doc.itemName),
        lsatRszeNm: str(doc.itemSpecification),
        lsatQty: str(doc.itemQuantity),
        lsatUtprc: str(doc.itemUnitPrice),
        lsatSplCft: str(doc.itemSupplyAmount),
        lsatTxamt: str(doc.itemTaxAmount),
        lsatRmrkCntn: str(doc.itemRemark),
      },
    ],
    sncClInfrBizSVO: {},
  };
}

const receiptCommon = (doc: Doc) => ({
  aprvNo: str(doc.approvalNumber),
  splCft: str(doc.supplyAmount),
  vaTxamt: str(doc.taxAmount),
  tip: str(doc.tip),
  totaTrsAmt: str(doc.totalAmount),
  spstCnfrClNm: str(doc.issueMethod),
  trsClNm: str(doc.transactionType),
});

export function cashReceiptSalesRow(doc: Doc): Doc {
  return { ...receiptCommon(doc), trsDtm: kstTime(doc.transactionAt), pblClCd: str(doc.issueType), cshptTrsTypeNm: str(doc.remark), cshptUsgClNm: str(doc.useType) };
}

export function cashReceiptPurchaseRow(doc: Doc): Doc {
  return {
    ...receiptCommon(doc),
    trsDtTime: kstTime(doc.transactionAt),
    tfbCd: str(doc.businessTypeCode),
    tfbNm: str(doc.businessTypeName),
    prhTxamtDdcYn: doc.deductible === "공제" ? "Y" : doc.deductible === "불공제" ? "N" : "",
    prhTxamtDdcClCd: str(doc.deductionClassificationCode),
    prhTxamtDdcClNm: str(doc.deductionClassificationName),
    pblClCd: str(doc.issueTypeCode),
    mrntTxprDscmNoEncCntn: str(doc.merchantBusinessIdentifier),
    bmanClNm: str(doc.merchantClassification),
    mrntTxprNm: str(doc.organizationName),
  };
}
