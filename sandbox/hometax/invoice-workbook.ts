import { type WrittenCell, writeWorkbook } from "../biff8-workbook";
import { invoiceLines } from "../sandbox-taxportal/invoice-lines";
import type { PortalDocument } from "./ground-truth";

/**
 * The invoice list's Excel download (`fleTp: "xls"`, S1 PR #5) as BIFF8: a `세금계산서` sheet with its header on
 * row 5 and the invoices from row 6, and a `품목` sheet with its header on row 4 and the lines from row 5 (rows
 * counted from 0, as xlrd counts them), from the documents the JSON list answers.
 */

/**
 * S19's columns in its order (PR #5 reads the parties at 6–8 and 11–13, where S19 puts them). The headers PR #5 reads
 * by name are PR #5's, spaces and all; the parties' share one wording, which PR #5's reading by position suggests
 * and no source shows, so it is the replica's own, as are the title rows.
 */
const INVOICE_COLUMNS = [
  "작성일자", "승인번호", "발급일자", "전송일자",
  "공급자사업자등록번호", "종사업장번호", "상호", "대표자명", "주소",
  "공급받는자사업자등록번호", "종사업장번호", "상호", "대표자명", "주소",
  "합계금액", "공급가액", "세액", "전자세금계산서 분류", "전자세금계산서종류", "발급유형", "비고", "영수/청구 구분",
  "공급자 이메일", "공급받는자 이메일1", "공급받는자 이메일2",
  "품목일자", "품목명", "품목규격", "품목수량", "품목단가", "품목공급가액", "품목세액", "품목비고",
];

/** The `품목` sheet's columns PR #5 reads by name; their order is the replica's (PR #5 does not show it). */
const ITEM_COLUMNS = ["승인번호", "품목순번", "일자", "품목명", "규격", "수량", "단가", "공급가액", "세액", "비고"];

type Doc = Record<string, unknown>;

const cell = (value: unknown): WrittenCell => (typeof value === "number" || typeof value === "string" ? value : null);
const hyphenated = (etan: string) => `${etan.slice(0, 8)}-${etan.slice(8, 16)}-${etan.slice(16)}`;

/** `전자세금계산서 분류` in PR #5's words: it tells 수정세금계산서 and 수정계산서 from the others. */
function classification(doc: Doc): string {
  const exempt = doc.invoiceKind === "전자계산서";
  return `${doc.invoiceClassification === "수정" ? "수정" : ""}${exempt ? "계산서" : "세금계산서"}`;
}

function lineCells(line: Doc): WrittenCell[] {
  return [cell(line.supplyDate), cell(line.itemName), cell(line.itemSpecification), cell(line.quantity), cell(line.unitPrice), cell(line.supplyAmount), cell(line.taxAmount), cell(line.remark)];
}

function invoiceCells({ record: doc, wire }: PortalDocument): WrittenCell[] {
  const first = invoiceLines(doc)[0];
  return [
    ...[doc.writeDate, hyphenated(String(doc.ntsTransactionId)), doc.issueDate, doc.sendDate].map(cell),
    ...[doc.supplierBusinessIdentifier, doc.supplierSubBusinessNumber, doc.supplierOrganizationName, doc.supplierRepresentativeName, doc.supplierAddress].map(cell),
    ...[doc.buyerBusinessIdentifier, doc.buyerSubBusinessNumber, doc.buyerOrganizationName, doc.buyerRepresentativeName, doc.buyerAddress].map(cell),
    ...[doc.totalAmount, doc.supplyAmount, doc.taxAmount, classification(doc), "일반", doc.issueChannel, wire.remark, doc.paymentType].map(cell),
    ...[doc.supplierEmail, doc.buyerEmail, doc.buyerEmailSecondary].map(cell),
    ...(first ? lineCells(first) : []),
  ];
}

/** One page of the download: its invoices, and the lines of those invoices. `renamed` plays a portal that renamed `승인번호`. */
export function invoiceWorkbook(documents: readonly PortalDocument[], title: readonly string[], renamed: boolean): Uint8Array {
  const header = (columns: readonly string[]) => columns.map((name) => (renamed && name === "승인번호" ? "국세청승인번호" : name));
  const items = documents.flatMap(({ record }) => invoiceLines(record).map((line, i) => [hyphenated(String(record.ntsTransactionId)), i + 1, ...lineCells(line)]));
  return writeWorkbook([
    { name: "세금계산서", rows: [...title.map((line) => [line]), [], header(INVOICE_COLUMNS), ...documents.map(invoiceCells)] },
    { name: "품목", rows: [...title.slice(0, 3).map((line) => [line]), [], header(ITEM_COLUMNS), ...items] },
  ]);
}
