import type { AdapterContext, RawRecord, TaskUnit } from "../adapter";
import { malformed } from "../failure-text";
import { TECR } from "./hosts";
import { allRows, pageInfo } from "./paging";
import type { Json } from "./portal-client";
import { type HometaxSession, subSite } from "./session";
import { amount, businessNumber, compact, kstDateTime, optionalAmount, text, windows } from "./values";

/** Action and screen of each list (S1, S8); the hop opens the sub-site on the sales list's screen, as S8 does. */
const LISTS = {
  sales: { actionId: "ATECRCBA001R03", screenId: "UTECRCB013", time: "trsDtm" },
  purchase: { actionId: "ATECRCBA001R02", screenId: "UTECRCB005", time: "trsDtTime" },
} as const;
const HOP_SCREEN = LISTS.sales.screenId;

/** `prhTxamtDdcYn` (S1: Y is deductible). */
const DEDUCTIBLE: Record<string, string> = { Y: "공제", N: "불공제" };

function listBody(tin: string, business: string, window: { start: string; end: string }, pageNum: number): Json {
  return {
    dprtUserYn: "N",
    fleTp: "",
    mrntTxprDscmNoEncCntn: "",
    pubcUserNo: "all",
    reqCd: "",
    spjbTrsYn: "all",
    spstCnfrId: "all",
    sumTotaTrsAmt: "",
    tin,
    trsDtRngStrt: compact(window.start),
    trsDtRngEnd: compact(window.end),
    txprDscmNo: business,
    totalCount: "0",
    sumSplCft: "0",
    pageInfoVO: pageInfo(pageNum),
  };
}

function common(schema: string, row: Json, timeField: string) {
  return {
    schema,
    approvalNumber: text(row.aprvNo) ?? (() => { throw malformed("a cash receipt without aprvNo"); })(),
    supplyAmount: amount(row.splCft, "splCft"),
    taxAmount: amount(row.vaTxamt, "vaTxamt"),
    totalAmount: amount(row.totaTrsAmt, "totaTrsAmt"),
    transactionAt: kstDateTime(row[timeField], timeField),
    tip: optionalAmount(row.tip, "tip"),
    issueMethod: text(row.spstCnfrClNm),
    transactionType: text(row.trsClNm),
  };
}

function salesRecord(schema: string, row: Json): RawRecord {
  return { ...common(schema, row, LISTS.sales.time), issueType: text(row.pblClCd), remark: text(row.cshptTrsTypeNm), useType: text(row.cshptUsgClNm) };
}

function purchaseRecord(schema: string, row: Json): RawRecord {
  const deductible = text(row.prhTxamtDdcYn);
  return {
    ...common(schema, row, LISTS.purchase.time),
    businessTypeCode: text(row.tfbCd),
    businessTypeName: text(row.tfbNm),
    deductible: deductible === null ? null : (DEDUCTIBLE[deductible] ?? deductible),
    deductionClassificationCode: text(row.prhTxamtDdcClCd),
    deductionClassificationName: text(row.prhTxamtDdcClNm),
    issueTypeCode: text(row.pblClCd),
    merchantBusinessIdentifier: businessNumber(row.mrntTxprDscmNoEncCntn),
    merchantClassification: text(row.bmanClNm),
    organizationName: text(row.mrntTxprNm),
    // No public source names these on the list's rows (docs/institutions/hometax.md, "Record mapping").
    contactNumber: null,
    issueTypeName: null,
    lotAddress: null,
    roadAddress: null,
  };
}

/** One unit of cash receipts: each window of the period, every page of the list (`cshTrsBrkdInqrDVOList`, S1 S8). */
export async function cashReceiptRecords(session: HometaxSession, unit: TaskUnit, ctx: AdapterContext): Promise<RawRecord[]> {
  const side = unit.schema.includes(".sales.") ? "sales" : "purchase";
  const list = LISTS[side];
  const site = await subSite(session, TECR, HOP_SCREEN);
  const tin = text(site.tin) ?? text(session.portal.tin);
  const business = ctx.businessNumber ?? businessNumber(session.portal.txprDscmNo);
  if (!tin || !business) throw malformed("the cash-receipt site's sessionMap has no tin or business number");
  const records: RawRecord[] = [];
  for (const window of windows(unit.segment!.start, unit.segment!.end, session.client.options.queryMonths)) {
    const rows = await allRows((pageNum) => session.client.action(TECR, list.actionId, list.screenId, listBody(tin, business, window, pageNum)), "cshTrsBrkdInqrDVOList");
    records.push(...rows.map((row) => (side === "sales" ? salesRecord(unit.schema, row) : purchaseRecord(unit.schema, row))));
  }
  return records;
}
