import { invoiceLines } from "../sandbox-taxportal/invoice-lines";
import type { PortalDocument } from "./ground-truth";

/**
 * The replica's documents in the portal's own field names (docs/institutions/hometax.md, "Wire reference"):
 * list rows of ATEETBDA001R01 and the detail of ATEETBDA001R02 for tax invoices, rows of
 * cshTrsBrkdInqrDVOList for cash receipts, and the lines of both text downloads. Dates go out as YYYYMMDD,
 * amounts as the portal's strings.
 */
type Doc = Record<string, unknown>;

/** How the wire gives what the sources leave open. */
export interface WireOptions {
  /** Cancelled cash receipts with negative amounts; unset, positive, as S8 sees them arrive (sheet A3, A8 q.3). */
  negativeCancellations?: boolean;
}

const compactDate = (value: unknown) => (typeof value === "string" ? value.replace(/-/g, "") : "");
const str = (value: unknown) => (value === null || value === undefined ? "" : String(value));
const PAYMENT_CODES: Record<string, string> = { 영수: "01", 청구: "02" };
export const INVOICE_KINDS: Record<string, string> = { 전자세금계산서: "01", 전자계산서: "03" };

/** "2026-01-05T09:10:11+09:00" as the portal's "2026-01-05 09:10:11" (the sources do not show the exact form). */
const kstTime = (iso: unknown) => str(iso).slice(0, 19).replace("T", " ");
const hyphenated = (etan: string) => `${etan.slice(0, 8)}-${etan.slice(8, 16)}-${etan.slice(16)}`;
const grouped = (value: unknown) => (typeof value === "number" ? value.toLocaleString("en-US") : "");

/** A 계산서's sums: blank, as S8's reading suggests, or filled with a 0 tax (sheet A8 q.5 leaves it open). */
function invoiceSums({ record, wire }: PortalDocument): Doc {
  if (record.invoiceKind !== "전자계산서") return { sumSplCft: str(record.supplyAmount), sumTxamt: str(record.taxAmount), totaAmt: str(record.totalAmount) };
  return wire.blankExemptSums ? { sumSplCft: "", sumTxamt: "", totaAmt: str(record.totalAmount) } : { sumSplCft: str(record.supplyAmount), sumTxamt: "0", totaAmt: str(record.totalAmount) };
}

export function invoiceRow(document: PortalDocument): Doc {
  const doc = document.record;
  return {
    etan: hyphenated(str(doc.ntsTransactionId)),
    wrtDt: compactDate(doc.writeDate),
    isnDtm: compactDate(doc.issueDate),
    tmsnDt: compactDate(doc.sendDate),
    tnmNm: str(doc.schema === "taxportal.tax-invoices.sales.v1" ? doc.buyerOrganizationName : doc.supplierOrganizationName),
    lsatNm: str(doc.itemName),
    ...invoiceSums(document),
    isnTypeCd: str(doc.issueChannel),
  };
}

export function invoiceDetail(document: PortalDocument): Doc {
  const { record: doc, wire } = document;
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
      etxivSq1RmrkCntn: str(wire.remark),
      etxivMdfRsnCd: wire.amendmentReason,
      tfstEtan: wire.originalEtan,
      ...invoiceSums(document),
    },
    lsatInfrBizSVOList: invoiceLines(doc).map((line) => ({
      lsatSplDt: compactDate(line.supplyDate),
      lsatNm: str(line.itemName),
      lsatRszeNm: str(line.itemSpecification),
      lsatQty: str(line.quantity),
      lsatUtprc: str(line.unitPrice),
      lsatSplCft: str(line.supplyAmount),
      lsatTxamt: str(line.taxAmount),
      lsatRmrkCntn: str(line.remark),
    })),
    sncClInfrBizSVO: {},
  };
}

/** A receipt's amounts as the wire gives them: a cancellation positive (S8) unless the option says negative. */
function wireAmounts(doc: Doc, options: WireOptions): Record<"supply" | "tax" | "tip" | "total", number | null> {
  const cancelled = doc.transactionType === "취소거래";
  const signed = (value: unknown) => (typeof value !== "number" ? null : cancelled ? (options.negativeCancellations ? -Math.abs(value) : Math.abs(value)) : value);
  return { supply: signed(doc.supplyAmount), tax: signed(doc.taxAmount), tip: signed(doc.tip), total: signed(doc.totalAmount) };
}

function receiptCommon(doc: Doc, options: WireOptions): Doc {
  const amounts = wireAmounts(doc, options);
  return {
    aprvNo: str(doc.approvalNumber),
    splCft: str(amounts.supply),
    vaTxamt: str(amounts.tax),
    tip: str(amounts.tip),
    totaTrsAmt: str(amounts.total),
    spstCnfrClNm: str(doc.issueMethod),
    trsClNm: str(doc.transactionType),
  };
}

export function cashReceiptSalesRow(doc: Doc, options: WireOptions = {}): Doc {
  return { ...receiptCommon(doc, options), trsDtm: kstTime(doc.transactionAt), pblClCd: str(doc.issueType), cshptTrsTypeNm: str(doc.remark), cshptUsgClNm: str(doc.useType) };
}

export function cashReceiptPurchaseRow(doc: Doc, options: WireOptions = {}): Doc {
  return {
    ...receiptCommon(doc, options),
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

/** The sales download's columns (S1), in an order of the replica's own: the sources show the names, not the order. */
export const SALES_DOWNLOAD_COLUMNS = ["매출일시", "승인번호", "거래구분", "발행구분", "공급가액", "부가세", "봉사료", "총금액", "비고", "신분확인뒷4자리"];

/** One line of the sales download, amounts comma-grouped (sheet A2). */
export function cashReceiptSalesLine(doc: Doc, options: WireOptions = {}): string[] {
  const amounts = wireAmounts(doc, options);
  const lastFour = String(doc.approvalNumber ?? "").slice(-4);
  return [kstTime(doc.transactionAt), str(doc.approvalNumber), str(doc.transactionType), str(doc.issueType), grouped(amounts.supply), grouped(amounts.tax), grouped(amounts.tip), grouped(amounts.total), str(doc.remark), lastFour];
}

/** The invoice download's columns: `승인번호` and `전송일자` are S1's; the others the replica takes from S1 PR #5's Excel sheet. */
export const INVOICE_DOWNLOAD_COLUMNS = ["작성일자", "승인번호", "전송일자", "공급자사업자등록번호", "공급받는자사업자등록번호", "공급가액", "세액", "합계금액"];

export function invoiceLine({ record: doc }: PortalDocument): string[] {
  return [str(doc.writeDate), hyphenated(str(doc.ntsTransactionId)), str(doc.sendDate), str(doc.supplierBusinessIdentifier), str(doc.buyerBusinessIdentifier), grouped(doc.supplyAmount), grouped(doc.taxAmount), grouped(doc.totalAmount)];
}
