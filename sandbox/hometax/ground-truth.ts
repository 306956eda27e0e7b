import { hashSeed } from "../random";
import { type DocumentType, documentsOf } from "../taxportal/documents";

/**
 * What the replica holds for a member: the sandbox portal's documents of the business, as Hometax's answers can
 * carry them. Fields no public source names in an answer (docs/institutions/hometax.md, "Record mapping") are
 * null here, because the replica has nowhere to send them; approval numbers have the portal's 24 characters.
 */
const NOT_ON_THE_WIRE: Record<string, readonly string[]> = {
  "taxportal.tax-invoices.sales.v1": ["supplierSubBusinessNumber", "trusteeBusinessIdentifier", "trusteeOrganizationName"],
  "taxportal.tax-invoices.purchase.v1": ["supplierSubBusinessNumber", "trusteeBusinessIdentifier", "trusteeOrganizationName"],
  "taxportal.cash-receipts.sales.v1": [],
  "taxportal.cash-receipts.purchase.v1": ["contactNumber", "issueTypeName", "lotAddress", "roadAddress"],
};

export function hometaxDocuments(businessNumber: string, schema: DocumentType, range: { start: string; end: string }): Record<string, unknown>[] {
  return documentsOf(businessNumber, schema, range).map((document) => {
    const out: Record<string, unknown> = { ...document };
    for (const field of NOT_ON_THE_WIRE[schema]!) out[field] = null;
    if (schema.startsWith("taxportal.tax-invoices.")) {
      // Every invoice the portal lists has its approval number; where the sandbox left one blank, one made from the document.
      const approval = document.ntsTransactionId ?? `${String(document.writeDate).replace(/-/g, "")}41${String(hashSeed(JSON.stringify(document))).padStart(12, "0").slice(-12)}`;
      out.ntsTransactionId = `${approval}ab`;
      // Every invoice is of a kind and original or amended on the portal; the sandbox's blanks have no place there.
      out.invoiceKind ??= "전자세금계산서";
      out.invoiceClassification ??= "일반";
    }
    return out;
  });
}
