import { type Cell, readWorkbook, type Sheet, WorkbookUnreadable } from "../kit/biff8-workbook";
import type { Json } from "./portal-client";
import { DOWNLOAD_PAGE_SIZE } from "./text-download";

/**
 * The invoice list's Excel download (`fleTp: "xls"`, S1 PR #5) as the detail's shape: each invoice of its
 * `세금계산서` sheet as an `etxivIsnBrkdTermDVO` and its lines of the `품목` sheet as `lsatInfrBizSVOList`, so the
 * records are built as from a detail (tax-invoices.ts, invoice-lines.ts). Only an amended invoice's reason and
 * original approval number are in neither sheet (PR #5 leaves both None), so it says which invoices are amended.
 * A layout other than the sources show is `WorkbookUnreadable`, never a guessed field (docs/institutions/hometax.md §11.2b).
 */
export interface WorkbookInvoice {
  /** `승인번호` without the hyphens the sheets show (PR #5 strips them before asking a detail). */
  etan: string;
  detail: Json;
  /** `전자세금계산서 분류` names a 수정(세금)계산서 (PR #5). */
  amended: boolean;
  /** For the check against the JSON row: `전송일자`, `합계금액`. */
  sendDate: Cell;
  total: Cell;
}

/** PR #5: the invoices' header on row 5 (xlrd counts from 0), rows from 6; the lines' header on row 4, rows from 5. */
const INVOICE_HEADER_ROW = 5;
const ITEM_HEADER_ROW = 4;

/**
 * Bounds of one page's file: a page holds 1,000 invoices (DOWNLOAD_PAGE_SIZE); lines are not bounded by any source,
 * so 20 an invoice on average, far past the sandbox's and S3's examples, bounds what one file may make the adapter hold.
 */
const LIMITS = { maxBytes: 8 * 1024 * 1024, maxRows: DOWNLOAD_PAGE_SIZE * 20 + ITEM_HEADER_ROW + 1 };

/**
 * Columns PR #5 reads by name, to the detail's field. Names are compared without spaces: PR #5 writes
 * `전자세금계산서 분류`, `공급자 이메일`, S19 the same without; the first column of a name counts, as PR #5's
 * `row_data` keeps it (a later one of the same name, the first line's flattened into the row in S19's order, is not the invoice's).
 */
const INVOICE_BY_NAME = {
  etan: "승인번호",
  wrtDt: "작성일자",
  tmsnDt: "전송일자",
  splrTxprDscmNo: "공급자사업자등록번호",
  dmnrTxprDscmNo: "공급받는자사업자등록번호",
  totaAmt: "합계금액",
  sumSplCft: "공급가액",
  sumTxamt: "세액",
  classification: "전자세금계산서분류",
  recApeClCd: "영수/청구구분",
  etxivSq1RmrkCntn: "비고",
  splrMchrgEmlAdr: "공급자이메일",
  dmnrMchrgEmlAdr: "공급받는자이메일1",
  dmnrSchrgEmlAdr: "공급받는자이메일2",
} as const;

/**
 * Columns read by position: the parties' name, representative and address share their headers, so PR #5 reads
 * them at 6–8 (supplier) and 11–13 (buyer); S19's order puts them there and the buyer's 종사업장번호 at 10, which
 * PR #5 does not read. Each header must still say what it holds, or the layout is not the one the sources show.
 */
const INVOICE_BY_PLACE = {
  splrTnmNm: [6, "상호"],
  splrRprsFnm: [7, "대표자"],
  splrPfbAdr: [8, "주소"],
  dmnrMpbNo: [10, "종사업장"],
  dmnrTnmNm: [11, "상호"],
  dmnrRprsFnm: [12, "대표자"],
  dmnrPfbAdr: [13, "주소"],
} as const;

/** The `품목` sheet's columns (PR #5, by name) to the detail's line fields. */
const ITEM_BY_NAME = {
  etan: "승인번호",
  number: "품목순번",
  lsatSplDt: "일자",
  lsatNm: "품목명",
  lsatRszeNm: "규격",
  lsatQty: "수량",
  lsatUtprc: "단가",
  lsatSplCft: "공급가액",
  lsatTxamt: "세액",
  lsatRmrkCntn: "비고",
} as const;

/** Dates PR #5 reads as text (`parse_date(str(value))`): a date as Excel's serial number is a layout it does not show. */
const DATES = new Set(["wrtDt", "tmsnDt", "lsatSplDt"]);

const unreadable = (why: string): never => {
  throw new WorkbookUnreadable(why);
};
const squeezed = (cell: Cell) => (typeof cell === "string" ? cell.replace(/\s/g, "") : "");
const etanOf = (cell: Cell) => (typeof cell === "string" ? cell.trim().replace(/-/g, "") : "");

/** Each data row of a sheet as the fields asked for, after its header row. */
function rowsOf(sheet: Sheet, headerRow: number, byName: Readonly<Record<string, string>>, byPlace: Readonly<Record<string, readonly [number, string]>> = {}): Json[] {
  const header = (sheet.rows[headerRow] ?? []).map(squeezed);
  const columns: [string, number][] = Object.entries(byName).map(([field, name]) => [field, header.indexOf(name.replace(/\s/g, ""))]);
  for (const [field, [at, says]] of Object.entries(byPlace)) columns.push([field, header[at]?.includes(says) ? at : -1]);
  const missing = columns.filter(([, at]) => at < 0).map(([field]) => field);
  if (missing.length > 0) unreadable(`sheet ${sheet.name}: header ${JSON.stringify(header)} lacks ${missing.join(", ")}`);
  return sheet.rows.slice(headerRow + 1).flatMap((cells, i) => {
    const row: Json = {};
    for (const [field, at] of columns) {
      const cell = cells[at] ?? null;
      if (DATES.has(field) && typeof cell === "number") unreadable(`sheet ${sheet.name} row ${headerRow + 2 + i}: ${field} as a number`);
      row[field] = typeof cell === "string" ? cell.trim() : (cell ?? "");
    }
    // PR #5 passes over rows without an approval number (`if not row_values[1]`).
    return etanOf(row.etan as Cell) ? [row] : [];
  });
}

/** One page of the Excel download: its invoices in the sheet's order, each with its lines. */
export function workbookInvoices(file: Uint8Array): WorkbookInvoice[] {
  const sheets = readWorkbook(file, LIMITS);
  const sheet = (name: string) => sheets.find((s) => s.name === name) ?? unreadable(`no sheet ${name} among ${sheets.map((s) => s.name).join(", ")}`);
  const lines = new Map<string, Json[]>();
  for (const item of rowsOf(sheet("품목"), ITEM_HEADER_ROW, ITEM_BY_NAME)) {
    const { etan, number, ...line } = item;
    const of = lines.get(etanOf(etan as Cell)) ?? [];
    // Lines in the order the invoice numbers them, as the detail lists them.
    if (Number(number) !== of.length + 1) unreadable(`품목: line ${String(number)} of ${String(etan)} after ${of.length}`);
    lines.set(etanOf(etan as Cell), [...of, line]);
  }
  return rowsOf(sheet("세금계산서"), INVOICE_HEADER_ROW, INVOICE_BY_NAME, INVOICE_BY_PLACE).map(({ classification, ...head }) => {
    const etan = etanOf(head.etan as Cell);
    const detail = { etxivIsnBrkdTermDVO: { ...head, etan, etxivMdfRsnCd: "", tfstEtan: "" }, lsatInfrBizSVOList: lines.get(etan) ?? [] };
    return { etan, detail, amended: String(classification).includes("수정"), sendDate: head.tmsnDt as Cell, total: head.totaAmt as Cell };
  });
}
