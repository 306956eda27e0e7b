import type { AdapterContext, RawRecord, TaskUnit } from "../adapter";
import { malformed } from "../failure-text";
import { TEET } from "./hosts";
import { allRows, PAGE_SIZE, pageInfo } from "./paging";
import type { Json } from "./portal-client";
import { type HometaxSession, subSite } from "./session";
import { amount, businessNumber, compact, date, optionalAmount, optionalDate, text, windows } from "./values";

/** The list's screen, also the hop's (S3, S4). */
const LIST_SCREEN = "UTEETBDA01";

/** `etxivClCd` (S1): 01 전자세금계산서, 03 전자계산서. Broker-issued kinds (02, 04) list only for the broker (S1), not for either party. */
const KINDS = { "01": "전자세금계산서", "03": "전자계산서" } as const;

/** `recApeClCd` (S3 PURPOSE_CODES). */
const PAYMENT_TYPES: Record<string, string> = { "01": "영수", "02": "청구" };

/** `dmnrMpbNo` of the head office (S3): no sub-business number. */
const HEAD_OFFICE = new Set(["", "0", "0000"]);

type Side = "sales" | "purchase";

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

function record(schema: string, side: Side, kind: keyof typeof KINDS, row: Json, detail: Json, ownBusiness: string | null): RawRecord {
  const head = detail.etxivIsnBrkdTermDVO as Json | undefined;
  const items = detail.lsatInfrBizSVOList;
  if (!head || typeof head !== "object" || !Array.isArray(items)) throw malformed("ATEETBDA001R02 answered without etxivIsnBrkdTermDVO and lsatInfrBizSVOList");
  const item = (items[0] ?? {}) as Json;
  const etan = text(row.etan)?.replace(/-/g, "") ?? "";
  if (!/^[0-9A-Za-z]{24}$/.test(etan) || text(head.etan)?.replace(/-/g, "") !== etan) throw malformed("an invoice row without its 24-character etan, or a detail of another invoice");
  const supplyAmount = amount(row.sumSplCft, "sumSplCft");
  const taxAmount = amount(row.sumTxamt, "sumTxamt");
  const totalAmount = amount(row.totaAmt, "totaAmt");
  if (supplyAmount + taxAmount !== totalAmount) throw malformed(`invoice ${etan}: supply and tax do not add up to the total`);
  const buyerSub = text(head.dmnrMpbNo) ?? "";
  const amendment = text(head.etxivMdfRsnCd);
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
    invoiceClassification: amendment === null || amendment === "ZZ" ? "일반" : "수정",
    invoiceKind: KINDS[kind],
    issueChannel: text(row.isnTypeCd),
    itemName: text(item.lsatNm),
    itemRemark: text(item.lsatRmrkCntn),
    itemSpecification: text(item.lsatRszeNm),
    ntsTransactionId: etan,
    paymentType: PAYMENT_TYPES[text(head.recApeClCd) ?? ""] ?? text(head.recApeClCd),
    remark: text(head.etxivSq1RmrkCntn),
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
    itemTaxAmount: optionalAmount(item.lsatTxamt, "lsatTxamt"),
    itemUnitPrice: optionalAmount(item.lsatUtprc, "lsatUtprc"),
    itemSupplyDate: optionalDate(item.lsatSplDt, "lsatSplDt"),
    sendDate: optionalDate(row.tmsnDt, "tmsnDt"),
  };
}

/** One unit of tax invoices: each window of the period, each kind, every page of the list, and each invoice's detail. */
export async function taxInvoiceRecords(session: HometaxSession, unit: TaskUnit, ctx: AdapterContext): Promise<RawRecord[]> {
  const side: Side = unit.schema.includes(".sales.") ? "sales" : "purchase";
  const site = await subSite(session, TEET, LIST_SCREEN);
  const tin = text(site.tin) ?? text(session.portal.tin);
  if (!tin) throw malformed("the tax-invoice site's sessionMap has no tin");
  const ownBusiness = ctx.businessNumber ?? businessNumber(session.portal.txprDscmNo);
  const records: RawRecord[] = [];
  for (const window of windows(unit.segment!.start, unit.segment!.end, session.client.options.queryMonths)) {
    for (const kind of Object.keys(KINDS) as (keyof typeof KINDS)[]) {
      const rows = await allRows((pageNum) => session.client.action(TEET, "ATEETBDA001R01", LIST_SCREEN, listBody(side, tin, kind, window, pageNum)), "etxivIsnBrkdTermDVOList");
      for (const row of rows) {
        const detail = await session.client.action(
          TEET,
          "ATEETBDA001R02",
          "UTEETBDA38",
          { etxivIsnBrkdTermDVOPrmt: { etan: text(row.etan)?.replace(/-/g, "") ?? "", screenId: LIST_SCREEN, pageNum: "1", slsPrhClCd: side === "sales" ? "01" : "02", etxivTin: tin, etxivClCd: "", etxivClsfCd: "", etxivMpbNo: "" } },
          { popup: true },
        );
        records.push(record(unit.schema, side, kind, row, detail, ownBusiness));
      }
    }
  }
  return records;
}
