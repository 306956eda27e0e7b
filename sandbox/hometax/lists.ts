import type { DocumentType } from "../sandbox-taxportal/documents";
import { failure, OK } from "./answers";
import { CARD_PURCHASES, cardPurchaseRow } from "./card-purchases";
import { type PortalDocument, portalDocuments } from "./ground-truth";
import type { HometaxMember } from "./members";
import { cashReceiptPurchaseRow, cashReceiptSalesRow, INVOICE_KINDS, invoiceDetail, invoiceRow, type WireOptions } from "./wire-rows";

type Json = Record<string, unknown>;

const PAGE_SIZES = new Set([10, 20, 30, 50]);
/** Rows of a list asked without `pageInfoVO` (S1's first calls): the replica's own choice, no source shows it. */
const UNPAGED_SIZE = 10;
const SIX_MONTHS = "6개월이상은 조회할 수 없습니다. \n 조회에 실패 실패하였습니다.";

export const isoOf = (d: string) => `${d.slice(0, 4)}-${d.slice(4, 6)}-${d.slice(6, 8)}`;

/** Whether the second YYYYMMDD date is six months or more after the first (the `ETICMZ0008` refusal, S1). */
function overSixMonths(start: string, end: string): boolean {
  const from = new Date(`${isoOf(start)}T00:00:00Z`);
  const limit = new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth() + 6, from.getUTCDate()));
  return new Date(`${isoOf(end)}T00:00:00Z`) >= limit;
}

/**
 * Whose list a tin asks for: the member's business tin lists its documents; the other tin of its login (a personal
 * tin, or the business it switched from, `members.ts` session) is a taxpayer with none, answered as an empty list,
 * which is how a wrong business choice goes unnoticed (sheet A5); any other tin is refused.
 */
function tinOf(member: HometaxMember, tin: unknown): "business" | "other" | "refused" {
  if (typeof tin !== "string") return "refused";
  if (tin === member.tin) return "business";
  return tin === member.session?.tin || tin === member.session?.cnvrTin ? "other" : "refused";
}

/**
 * A page of a list as the member's portal gives it: the page asked for, or one of the faults the sources warn of
 * (sheet A2): a page repeating the one before it (S1's test), a total that moves between pages, an approval number
 * twice (S3 refuses both). The first page is always right, so the fault shows only in a run of pages.
 */
export function pageOf<T>(all: readonly T[], pageNum: number, pageSize: number, member: HometaxMember): { total: number; rows: T[] } {
  const slice = (n: number) => all.slice((n - 1) * pageSize, n * pageSize);
  const rows = slice(pageNum);
  switch (member.behaviour) {
    case "repeated-page":
      return { total: all.length, rows: pageNum > 1 ? slice(pageNum - 1).slice(0, rows.length) : rows };
    case "count-changes":
      return { total: pageNum > 1 ? all.length + 1 : all.length, rows };
    case "duplicate-approval":
      return { total: all.length, rows: rows.length > 1 ? [...rows.slice(0, -1), rows[0]!] : rows };
    default:
      return { total: all.length, rows };
  }
}

/** A member's invoices of one list query (ATEETBDA001R01's filter), or the portal's refusal of the filter. */
export function invoicesFor(member: HometaxMember, filter: Json): { schema: DocumentType; documents: PortalDocument[] } | Json {
  const start = String(filter.inqrDtStrt ?? "");
  const end = String(filter.inqrDtEnd ?? "");
  if (!/^\d{8}$/.test(start) || !/^\d{8}$/.test(end) || end < start) return failure("조회에 실패하였습니다.");
  if (overSixMonths(start, end)) return failure(SIX_MONTHS, "ETICMZ0008");
  const sales = filter.prhSlsClCd === "01";
  const schema: DocumentType = sales ? "taxportal.tax-invoices.sales.v1" : "taxportal.tax-invoices.purchase.v1";
  const whose = tinOf(member, sales ? filter.splrTin : filter.dmnrTin);
  if (whose === "refused") return failure("권한이 없는 화면입니다.");
  // Blank filters answer nothing rather than everything (S3's "false zero").
  const blank = filter.etxivClsfCd !== "all" || filter.etxivKndCd !== "all" || filter.isnTypeCd !== "all";
  if (whose === "other" || blank) return { schema, documents: [] };
  return { schema, documents: portalDocuments(member.businessNumber, schema, { start: isoOf(start), end: isoOf(end) }).filter((d) => INVOICE_KINDS[String(d.record.invoiceKind)] === filter.etxivClCd) };
}

/** A member's cash receipts (or card purchases) of one query (`tin`, `trsDtRngStrt`, `trsDtRngEnd`), or the refusal. */
export function receiptsFor(member: HometaxMember, json: Json, schema: DocumentType): Json[] | Json {
  const start = String(json.trsDtRngStrt ?? "");
  const end = String(json.trsDtRngEnd ?? "");
  const whose = tinOf(member, json.tin);
  if (!/^\d{8}$/.test(start) || !/^\d{8}$/.test(end) || end < start || whose === "refused") return failure("조회에 실패하였습니다.");
  return whose === "other" ? [] : portalDocuments(member.businessNumber, schema, { start: isoOf(start), end: isoOf(end) }).map((d) => d.record);
}

/** The list's sums as the receipts lists answer them (S1 S8), cancellations netted (S12). */
export const receiptSums = (records: readonly Json[]) => ({
  sumTotaTrsAmt: String(records.reduce((sum, r) => sum + (r.totalAmount as number), 0)),
  sumSplCft: String(records.reduce((sum, r) => sum + (r.supplyAmount as number), 0)),
});

function listAnswer<T>(all: readonly T[], row: (doc: T) => Json, key: string, pageInfo: Json | undefined, member: HometaxMember, extra: Json = {}): Json {
  const pageNum = pageInfo === undefined ? 1 : Number(pageInfo.pageNum);
  const pageSize = pageInfo === undefined ? UNPAGED_SIZE : Number(pageInfo.pageSize);
  if (!PAGE_SIZES.has(pageSize) || !Number.isInteger(pageNum) || pageNum < 1) return failure("조회에 실패하였습니다.");
  const page = pageOf(all, pageNum, pageSize, member);
  // A portal that changed its answer: the rows under a name the adapter does not know.
  const listKey = member.behaviour === "changed-answer" ? `${key}New` : key;
  return { resultMsg: OK, ...extra, pageInfoVO: { pageNum, pageSize, totalCount: page.total }, [listKey]: page.rows.map(row) };
}

/** `wqAction.do` of teet: the invoice list and an invoice's detail. */
export function teetAnswer(actionId: string | null, json: Json, member: HometaxMember): Json {
  const filter = (json.etxivIsnBrkdTermDVOPrmt ?? {}) as Json;
  if (actionId === "ATEETBDA001R01") {
    const found = invoicesFor(member, filter);
    if (!("documents" in found)) return found;
    return listAnswer(found.documents as PortalDocument[], invoiceRow, "etxivIsnBrkdTermDVOList", json.pageInfoVO as Json | undefined, member);
  }
  if (actionId === "ATEETBDA001R02") {
    const etan = String(filter.etan ?? "");
    const schema = filter.slsPrhClCd === "01" ? "taxportal.tax-invoices.sales.v1" : "taxportal.tax-invoices.purchase.v1";
    const day = isoOf(etan.slice(0, 8));
    const doc = /^\d{8}/.test(etan) && filter.etxivTin === member.tin ? portalDocuments(member.businessNumber, schema, { start: day, end: day }).find((d) => d.record.ntsTransactionId === etan) : undefined;
    return doc ? { resultMsg: OK, ...invoiceDetail(doc) } : failure("조회에 실패하였습니다.");
  }
  return failure("권한이 없는 화면입니다.");
}

/** `wqAction.do` of tecr: the cash-receipt sales and purchase lists with their sums, and business-card purchases. */
export function tecrAnswer(actionId: string | null, json: Json, member: HometaxMember, wire: WireOptions): Json {
  const lists: Record<string, { schema: DocumentType; row: (doc: Json, options: WireOptions) => Json; key: string; sums: boolean }> = {
    ATECRCBA001R03: { schema: "taxportal.cash-receipts.sales.v1", row: cashReceiptSalesRow, key: "cshTrsBrkdInqrDVOList", sums: true },
    ATECRCBA001R02: { schema: "taxportal.cash-receipts.purchase.v1", row: cashReceiptPurchaseRow, key: "cshTrsBrkdInqrDVOList", sums: true },
    [CARD_PURCHASES.actionId]: { schema: CARD_PURCHASES.schema, row: cardPurchaseRow, key: CARD_PURCHASES.listKey, sums: false },
  };
  const list = actionId ? lists[actionId] : undefined;
  if (!list) return failure("권한이 없는 화면입니다.");
  const found = receiptsFor(member, json, list.schema);
  if (!Array.isArray(found)) return found;
  return listAnswer(found, (doc) => list.row(doc, wire), list.key, json.pageInfoVO as Json | undefined, member, list.sums ? receiptSums(found) : {});
}
