import type { AdapterContext } from "../adapter";
import type { RawRecord, TaskUnit } from "../../contracts/task-unit";
import { malformed } from "../kit/failure-text";
import { siteBusiness } from "./business-choice";
import { TEET } from "./hosts";
import { checkAgainstDownload, invoicesFromWorkbook } from "./invoice-download";
import { EXEMPT_KIND, invoiceAmounts, isAmended, remarkWithAmendment } from "./invoice-values";
import { allRows, PAGE_SIZE, pageInfo } from "./paging";
import type { Json } from "./portal-client";
import type { HometaxSession } from "./session";
import { businessNumber, compact, date, optionalAmount, optionalDate, text, windows } from "./values";

/** The list's screen, also the hop's (S3, S4). */
const LIST_SCREEN = "UTEETBDA01";

/** `etxivClCd` (S1): 01 전자세금계산서, 03 전자계산서. Broker-issued kinds (02, 04) list only for the broker (S1), not for either party. */
const KINDS = { "01": "전자세금계산서", "03": "전자계산서" } as const;

/** `recApeClCd` (S3 PURPOSE_CODES). */
const PAYMENT_TYPES: Record<string, string> = { "01": "영수", "02": "청구" };

/** `dmnrMpbNo` of the head office (S3): no sub-business number. */
const HEAD_OFFICE = new Set(["", "0", "0000"]);

export type Side = "sales" | "purchase";

/** An invoice row's approval number without the `8-8-8` hyphens lists show (S3). */
const etanOf = (row: Json) => text(row.etan)?.replace(/-/g, "") ?? "";

function listBody(side: Side, tin: string, kind: string, window: { start: string; end: string }, pageNum: number): Json {
  return {
    resnoSecYn: "Y",
    icldLsatInfr: "N",
    fleDwldYn: "N",
    srtClCd: "2",
    srtOpt: "01",
    pageInfoVO: pageInfo(pageNum),
    excelPageInfoVO: pageInfo(pageNum),
    etxivIsnBrkdTermDVOPrmt: {
      splrTin: side === "sales" ? tin : "",
      dmnrTin: side === "purchase" ? tin : "",
      prhSlsClCd: side === "sales" ? "01" : "02",
      // 01: by written date, the date VAT periods are counted by.
      dtCl: "01",
      etxivClCd: kind,
      bmanCd: "00",
      pageSize: String(PAGE_SIZE),
      inqrDtStrt: compact(window.start),
      inqrDtEnd: compact(window.end),
      // "all", not blank: blank filters answer zero rows without an error (S3).
      etxivClsfCd: "all",
      etxivKndCd: "all",
      isnTypeCd: "all",
      splrMpbNo: "",
      dmnrMpbNo: "",
      splrTxprDscmNo: "",
      dmnrTxprDscmNo: "",
    },
  };
}

/** An invoice's detail checked against its list row: its head and line items are there, and are this invoice's (its 24-character etan). */
export function checkedDetail(row: Json, detail: Json): { etan: string; head: Json; items: Json[] } {
  const head = detail.etxivIsnBrkdTermDVO as Json | undefined;
  const items = detail.lsatInfrBizSVOList;
  if (!head || typeof head !== "object" || !Array.isArray(items)) throw malformed("ATEETBDA001R02 answered without etxivIsnBrkdTermDVO and lsatInfrBizSVOList");
  const etan = etanOf(row);
  if (!/^[0-9A-Za-z]{24}$/.test(etan) || text(head.etan)?.replace(/-/g, "") !== etan) throw malformed("an invoice row without its 24-character etan, or a detail of another invoice");
  return { etan, head, items: items as Json[] };
}

function record(schema: string, side: Side, kind: keyof typeof KINDS, row: Json, detail: Json, ownBusiness: string | null): RawRecord {
  const { etan, head, items } = checkedDetail(row, detail);
  const item = (items[0] ?? {}) as Json;
  const { supplyAmount, taxAmount, totalAmount } = invoiceAmounts(kind, row);
  const buyerSub = text(head.dmnrMpbNo) ?? "";
  const supplier = businessNumber(head.splrTxprDscmNo);
  const buyer = businessNumber(head.dmnrTxprDscmNo);
  return {
    schema,
    issueDate: date(row.isnDtm, "isnDtm"),
    writeDate: date(row.wrtDt, "wrtDt"),
    supplyAmount,
    taxAmount,
    totalAmount,
    supplierBusinessIdentifier: supplier ?? (side === "sales" ? ownBusiness : null),
    buyerBusinessIdentifier: buyer ?? (side === "purchase" ? ownBusiness : null),
    buyerAddress: text(head.dmnrPfbAdr),
    buyerEmail: text(head.dmnrMchrgEmlAdr),
    buyerEmailSecondary: text(head.dmnrSchrgEmlAdr),
    buyerOrganizationName: text(head.dmnrTnmNm),
    buyerRepresentativeName: text(head.dmnrRprsFnm),
    buyerSubBusinessNumber: HEAD_OFFICE.has(buyerSub) ? null : buyerSub,
    // An amendment reason other than none/ZZ marks an amended invoice (S3).
    invoiceClassification: isAmended(head) ? "수정" : "일반",
    invoiceKind: KINDS[kind],
    issueChannel: text(row.isnTypeCd),
    itemName: text(item.lsatNm),
    itemRemark: text(item.lsatRmrkCntn),
    itemSpecification: text(item.lsatRszeNm),
    ntsTransactionId: etan,
    paymentType: PAYMENT_TYPES[text(head.recApeClCd) ?? ""] ?? text(head.recApeClCd),
    remark: remarkWithAmendment(head),
    supplierAddress: text(head.splrPfbAdr),
    supplierEmail: text(head.splrMchrgEmlAdr),
    supplierOrganizationName: text(head.splrTnmNm),
    supplierRepresentativeName: text(head.splrRprsFnm),
    // No public source names these in a JSON answer (docs/institutions/hometax.md, "Record mapping").
    supplierSubBusinessNumber: null,
    trusteeBusinessIdentifier: null,
    trusteeOrganizationName: null,
    itemQuantity: optionalAmount(item.lsatQty, "lsatQty"),
    itemSupplyAmount: optionalAmount(item.lsatSplCft, "lsatSplCft"),
    // A 계산서 has no tax of its own nor per item (invoice-values.ts).
    itemTaxAmount: kind === EXEMPT_KIND ? null : optionalAmount(item.lsatTxamt, "lsatTxamt"),
    itemUnitPrice: optionalAmount(item.lsatUtprc, "lsatUtprc"),
    itemSupplyDate: optionalDate(item.lsatSplDt, "lsatSplDt"),
    sendDate: optionalDate(row.tmsnDt, "tmsnDt"),
  };
}

/**
 * Each invoice of one side over a period, its list row beside its detail: each window of the period, each kind, every
 * page of the list (`issueDate`, `issueChannel`, the paging checks), then the Excel download's sheets in the detail's
 * shape with a detail request (ATEETBDA001R02) only for an amended invoice, or, with the text download or none, or a
 * workbook it could not use, a detail request per invoice; the invoices and their lines are read from those.
 */
export async function invoiceDetails(session: HometaxSession, side: Side, period: { start: string; end: string }): Promise<{ kind: keyof typeof KINDS; row: Json; detail: Json }[]> {
  const { tin } = await siteBusiness(session, TEET, LIST_SCREEN);
  const { invoiceDownloadCheck, invoiceDownload, queryMonths } = session.client.options;
  const found: { kind: keyof typeof KINDS; row: Json; detail: Json }[] = [];
  const detailOf = (row: Json) =>
    session.client.action(
      TEET,
      "ATEETBDA001R02",
      "UTEETBDA38",
      { etxivIsnBrkdTermDVOPrmt: { etan: etanOf(row), screenId: LIST_SCREEN, pageNum: "1", slsPrhClCd: side === "sales" ? "01" : "02", etxivTin: tin, etxivClCd: "", etxivClsfCd: "", etxivMpbNo: "" } },
      { popup: true },
    );
  for (const window of windows(period.start, period.end, queryMonths)) {
    for (const kind of Object.keys(KINDS) as (keyof typeof KINDS)[]) {
      const rows = await allRows((pageNum) => session.client.action(TEET, "ATEETBDA001R01", LIST_SCREEN, listBody(side, tin, kind, window, pageNum)), "etxivIsnBrkdTermDVOList", etanOf);
      const filter = listBody(side, tin, kind, window, 1).etxivIsnBrkdTermDVOPrmt as Json;
      const sheets = invoiceDownloadCheck && invoiceDownload === "xls" ? await invoicesFromWorkbook(session.client, filter, rows) : null;
      if (invoiceDownloadCheck && invoiceDownload === "txt") await checkAgainstDownload(session.client, filter, rows);
      for (const row of rows) {
        const sheet = sheets?.get(etanOf(row));
        found.push({ kind, row, detail: sheet && !sheet.amended ? sheet.detail : await detailOf(row) });
      }
    }
  }
  return found;
}

/** One unit of tax invoices: every invoice of the side in the unit's period, with its detail. */
export async function taxInvoiceRecords(session: HometaxSession, unit: TaskUnit, ctx: AdapterContext): Promise<RawRecord[]> {
  const side: Side = unit.schema.includes(".sales.") ? "sales" : "purchase";
  const ownBusiness = ctx.businessNumber ?? businessNumber(session.portal.txprDscmNo);
  const invoices = await invoiceDetails(session, side, unit.segment!);
  return invoices.map(({ kind, row, detail }) => record(unit.schema, side, kind, row, detail, ownBusiness));
}
