import { hashSeed } from "../random";
import { type DocumentType, documentsOf } from "../sandbox-taxportal/documents";
import { linesOfSides } from "../sandbox-taxportal/invoice-lines";

/**
 * What the replica holds for a member: the sandbox portal's documents of the business, as Hometax's answers can
 * carry them and as the adapter must record them. Fields no public source names in an answer (docs/institutions/
 * hometax.md, "Record mapping") are null here, because the replica has nowhere to send them; approval numbers have
 * the portal's 24 characters.
 */
const NOT_ON_THE_WIRE: Record<string, readonly string[]> = {
  "taxportal.tax-invoices.sales.v1": ["supplierSubBusinessNumber", "trusteeBusinessIdentifier", "trusteeOrganizationName"],
  "taxportal.tax-invoices.purchase.v1": ["supplierSubBusinessNumber", "trusteeBusinessIdentifier", "trusteeOrganizationName"],
  // The sales download, the adapter's default path, has no column for these (S1 420dfdf).
  "taxportal.cash-receipts.sales.v1": ["issueMethod", "useType"],
  "taxportal.cash-receipts.purchase.v1": ["contactNumber", "issueTypeName", "lotAddress", "roadAddress"],
  "taxportal.business-card-purchases.v1": [],
};

/** What the portal sends about a document beyond its record: the wire facts the record is made from. */
export interface WireFacts {
  /** The invoice's own remark (`etxivSq1RmrkCntn`), before the adapter adds an amendment to it. */
  remark: string | null;
  /** `etxivMdfRsnCd`: blank or `ZZ` for an original (S3), 01–06 for an amendment (S14, S15). */
  amendmentReason: string;
  /** `tfstEtan`: the approval number an amendment amends. */
  originalEtan: string;
  /** A 계산서 row with `sumSplCft`/`sumTxamt` blank, as S8's reading suggests (sheet A5, A8 q.5), rather than filled. */
  blankExemptSums: boolean;
}

export interface PortalDocument {
  record: Record<string, unknown>;
  wire: WireFacts;
}

/** NTS names of the amendment reasons (S15), which the adapter writes into the remark. */
const AMENDMENT_REASONS: Record<string, string> = { "01": "기재사항 착오정정", "02": "공급가액 변동", "04": "계약의 해제", "05": "내국신용장 사후개설" };

/** A cancellation's amounts are negative in the records, whatever sign the wire gives (docs/institutions/hometax.md, "Values"). */
const negative = (value: unknown) => (typeof value === "number" && value !== 0 ? -Math.abs(value) : value);

function invoice(out: Record<string, unknown>, document: Record<string, unknown>): WireFacts {
  // Every invoice the portal lists has its approval number; where the sandbox left one blank, one made from the document.
  const approval = document.ntsTransactionId ?? `${String(document.writeDate).replace(/-/g, "")}41${String(hashSeed(JSON.stringify(document))).padStart(12, "0").slice(-12)}`;
  out.ntsTransactionId = `${approval}ab`;
  const seed = hashSeed(String(out.ntsTransactionId));
  // Every invoice is of a kind and original or amended on the portal; the sandbox's blanks have no place there.
  out.invoiceKind ??= "전자세금계산서";
  out.invoiceClassification ??= "일반";
  if (out.invoiceKind === "전자계산서") {
    // A 계산서 is tax-exempt: no tax, the total is the supply, and no item tax.
    out.taxAmount = 0;
    out.totalAmount = out.supplyAmount;
    out.itemTaxAmount = null;
  }
  const wire: WireFacts = { remark: (out.remark as string | null) ?? null, amendmentReason: seed % 2 ? "ZZ" : "", originalEtan: "", blankExemptSums: seed % 3 !== 0 };
  if (out.invoiceClassification === "수정") {
    // A negative amendment cancels the original's whole amount (04); a positive one corrects or adds to it.
    wire.amendmentReason = (out.totalAmount as number) < 0 ? "04" : (["01", "02", "05"] as const)[seed % 3]!;
    wire.originalEtan = `${String(out.ntsTransactionId).slice(0, 8)}41${String(seed).padStart(12, "0").slice(-12)}cd`;
    const note = `[수정사유 ${wire.amendmentReason} ${AMENDMENT_REASONS[wire.amendmentReason]}, 당초승인번호 ${wire.originalEtan}]`;
    out.remark = wire.remark ? `${wire.remark} ${note}` : note;
  }
  return wire;
}

/** Each document of a member with what the portal sends about it (wire-rows.ts writes both from here). */
export function portalDocuments(businessNumber: string, schema: DocumentType, range: { start: string; end: string }): PortalDocument[] {
  return documentsOf(businessNumber, schema, range).map((document) => {
    const out: Record<string, unknown> = { ...document };
    for (const field of NOT_ON_THE_WIRE[schema]!) out[field] = null;
    let wire: WireFacts = { remark: (out.remark as string | null) ?? null, amendmentReason: "", originalEtan: "", blankExemptSums: false };
    if (schema.startsWith("taxportal.tax-invoices.")) wire = invoice(out, document);
    if (out.transactionType === "취소거래") for (const field of ["supplyAmount", "taxAmount", "totalAmount", "tip"]) out[field] = negative(out[field]);
    return { record: out, wire };
  });
}

/** The records the adapter must give for a member's documents: what the tests compare against. */
export function hometaxDocuments(businessNumber: string, schema: DocumentType, range: { start: string; end: string }): Record<string, unknown>[] {
  // Lines come with the replica's invoices, under the approval numbers it gives them.
  if (schema === "taxportal.tax-invoice-lines.v1") return linesOfSides((side) => hometaxDocuments(businessNumber, side, range));
  return portalDocuments(businessNumber, schema, range).map((document) => document.record);
}
