import { createHash } from "node:crypto";
import type { AnyRecord, RecordOf, SchemaId } from "../../client/src/index";

/**
 * What identifies a record across loads, per schema: the institution's own
 * identifiers. Where the schema has none it can rely on (a tax invoice's
 * NTS id may be missing), the digest of the whole record stands in.
 */
const NATURAL_KEYS: { [S in SchemaId]: (record: RecordOf<S>) => (string | null)[] } = {
  "bank.accounts.cb.v1": (r) => [r.accountNumber],
  "bank.transactions.cb.v1": (r) => [r.accountNumber, r.identifier],
  "card.cards.corp.v1": (r) => [r.cardNumberMasked],
  "card.approvals.corp.v1": (r) => [r.cardNumberMasked, r.transactionIdentifier],
  "taxportal.tax-invoices.sales.v1": (r) => [r.ntsTransactionId],
  "taxportal.tax-invoices.purchase.v1": (r) => [r.ntsTransactionId],
  "taxportal.cash-receipts.sales.v1": (r) => [r.approvalNumber, r.transactionAt],
  "taxportal.cash-receipts.purchase.v1": (r) => [r.approvalNumber, r.transactionAt],
  "taxportal.tax-invoice-lines.v1": (r) => [r.approvalNumber, String(r.lineNumber)],
  "taxportal.business-card-purchases.v1": (r) => [r.transactionIdentifier],
  "business.status.v1": (r) => [r.businessNumber],
};

const digest = (record: AnyRecord) => createHash("sha256").update(JSON.stringify(record)).digest("hex");

export function naturalKey(record: AnyRecord): string {
  const parts = (NATURAL_KEYS[record.schema] as (r: AnyRecord) => (string | null)[])(record);
  return parts.some((p) => p === null) ? `sha256:${digest(record)}` : parts.join("|");
}
