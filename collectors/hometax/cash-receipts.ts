import type { AdapterContext, RawRecord, TaskUnit } from "../adapter";
import { malformed } from "../kit/failure-text";
import { siteBusiness } from "./business-choice";
import { TECR } from "./hosts";
import { allRows, checkedPages, pageInfo, totalOf } from "./paging";
import type { Json, PortalClient } from "./portal-client";
import type { HometaxSession } from "./session";
import { DOWNLOAD_PAGE_SIZE, downloadText, readTable } from "./text-download";
import { amount, businessNumber, cancelled, compact, isCancellation, kstDateTime, optionalAmount, text, windows } from "./values";

/** Action and screen of each list (S1, S8); the hop opens the sub-site on the sales list's screen, as S8 does. */
const LISTS = {
  sales: { actionId: "ATECRCBA001R03", screenId: "UTECRCB013", time: "trsDtm" },
  purchase: { actionId: "ATECRCBA001R02", screenId: "UTECRCB005", time: "trsDtTime" },
} as const;
const HOP_SCREEN = LISTS.sales.screenId;

/** The sales download's header, as S1 reads it (420dfdf; sheet A2); the order is not shown, so any order. */
const SALES_COLUMNS = ["매출일시", "공급가액", "부가세", "봉사료", "총금액", "승인번호", "발행구분", "거래구분", "비고", "신분확인뒷4자리"];

/** `prhTxamtDdcYn` (S1: Y is deductible). */
const DEDUCTIBLE: Record<string, string> = { Y: "공제", N: "불공제" };

type Window = { start: string; end: string };

/** S1's body; without a page number it is S1's plain first call of the sales download (no `pageInfoVO`). */
function listBody(tin: string, business: string, window: Window, pageNum?: number): Json {
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
    ...(pageNum === undefined ? {} : { pageInfoVO: pageInfo(pageNum) }),
  };
}

/** What every receipt carries, read from a JSON row or a download row; a cancellation's amounts negative (values.ts). */
function receipt(schema: string, fields: { approval: unknown; supply: unknown; tax: unknown; tip: unknown; total: unknown; at: unknown; atField: string; type: unknown }) {
  const transactionType = text(fields.type);
  const sign = isCancellation(transactionType) ? cancelled : (value: number) => value;
  const tip = optionalAmount(fields.tip, "tip");
  return {
    schema,
    approvalNumber: text(fields.approval) ?? (() => { throw malformed("a cash receipt without its approval number"); })(),
    supplyAmount: sign(amount(fields.supply, "supply amount")),
    taxAmount: sign(amount(fields.tax, "tax amount")),
    totalAmount: sign(amount(fields.total, "total amount")),
    transactionAt: kstDateTime(fields.at, fields.atField),
    tip: tip === null ? null : sign(tip),
    transactionType,
  };
}

const fromRow = (schema: string, row: Json, atField: string) =>
  receipt(schema, { approval: row.aprvNo, supply: row.splCft, tax: row.vaTxamt, tip: row.tip, total: row.totaTrsAmt, at: row[atField], atField, type: row.trsClNm });

function salesRecord(schema: string, row: Json): RawRecord {
  return { ...fromRow(schema, row, LISTS.sales.time), issueMethod: text(row.spstCnfrClNm), issueType: text(row.pblClCd), remark: text(row.cshptTrsTypeNm), useType: text(row.cshptUsgClNm) };
}

/** A download row (S1's columns): the download has no column for the means of issue or the use (S1 leaves them blank). */
function downloadedSalesRecord(schema: string, row: Json): RawRecord {
  const common = receipt(schema, { approval: row["승인번호"], supply: row["공급가액"], tax: row["부가세"], tip: row["봉사료"], total: row["총금액"], at: row["매출일시"], atField: "매출일시", type: row["거래구분"] });
  return { ...common, issueMethod: null, issueType: text(row["발행구분"]), remark: text(row["비고"]), useType: null };
}

function purchaseRecord(schema: string, row: Json): RawRecord {
  const deductible = text(row.prhTxamtDdcYn);
  return {
    ...fromRow(schema, row, LISTS.purchase.time),
    issueMethod: text(row.spstCnfrClNm),
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

/**
 * The list's own sums (`sumTotaTrsAmt`, `sumSplCft`, S1 S8) against the records, cancellations netted as in S12's
 * example (two approvals and their two cancellations total 0). The download path needs them (S1 reads them from the
 * plain call); a JSON answer without them is checked by count only.
 */
function checkSums(records: RawRecord[], answer: Json, list: string, required: boolean): void {
  if (text(answer.sumTotaTrsAmt) === null || text(answer.sumSplCft) === null) {
    if (required) throw malformed(`${list}: answer without sumTotaTrsAmt and sumSplCft`);
    return;
  }
  const sum = (field: string) => records.reduce((total, r) => total + (r[field] as number), 0);
  if (sum("totalAmount") !== amount(answer.sumTotaTrsAmt, "sumTotaTrsAmt") || sum("supplyAmount") !== amount(answer.sumSplCft, "sumSplCft")) {
    throw malformed(`${list}: the rows do not add up to the list's sumTotaTrsAmt / sumSplCft`);
  }
}

/**
 * Cash-receipt sales the way S1 reads them since 2025-04 (420dfdf, 5df38bc, 2064dfa, 1cba8c6): one plain JSON call
 * for the count and sums, nothing more when the count is 0, then the text download 1000 rows a page; every page
 * checked as the JSON pages are, and the rows against the call's count and sums.
 */
async function downloadedSales(client: PortalClient, schema: string, tin: string, business: string, window: Window): Promise<RawRecord[]> {
  const { actionId, screenId } = LISTS.sales;
  const first = await client.action(TECR, actionId, screenId, listBody(tin, business, window));
  const total = totalOf(first, actionId);
  if (total === 0) return [];
  const param = (pageNum: number): Json => ({
    fleTp: "txt",
    pblClCd: "all",
    reqCd: "00",
    sumTotaTrsAmt: first.sumTotaTrsAmt,
    tin,
    trsDtRngEnd: compact(window.end),
    trsDtRngStrt: compact(window.start),
    totalCount: 0,
    sumSplCft: first.sumSplCft,
    pageInfoVO: { pageSize: DOWNLOAD_PAGE_SIZE, pageNum, totalCount: total },
  });
  const list = `${actionId} download`;
  // The first line is a summary (S1 skips it); its form is not shown, so it is not read.
  const rows = await checkedPages(list, DOWNLOAD_PAGE_SIZE, async (pageNum) => ({ total, rows: readTable(await downloadText(client, TECR, actionId, screenId, param(pageNum)), 1, { exactly: SALES_COLUMNS }, list) }), (row) => text(row["승인번호"]) ?? "");
  const records = rows.map((row) => downloadedSalesRecord(schema, row));
  checkSums(records, first, list, true);
  return records;
}

/** One unit of cash receipts: each window of the period, every page of the list (`cshTrsBrkdInqrDVOList`, S1 S8) or the sales download. */
export async function cashReceiptRecords(session: HometaxSession, unit: TaskUnit, ctx: AdapterContext): Promise<RawRecord[]> {
  const side = unit.schema.includes(".sales.") ? "sales" : "purchase";
  const list = LISTS[side];
  const { tin } = await siteBusiness(session, TECR, HOP_SCREEN);
  const business = ctx.businessNumber ?? businessNumber(session.portal.txprDscmNo);
  if (!business) throw malformed("the portal's sessionMap has no business number");
  const { client } = session;
  const records: RawRecord[] = [];
  for (const window of windows(unit.segment!.start, unit.segment!.end, client.options.queryMonths)) {
    if (side === "sales" && client.options.cashReceiptSalesList === "download") {
      records.push(...(await downloadedSales(client, unit.schema, tin, business, window)));
      continue;
    }
    let first: Json = {};
    const rows = await allRows(
      async (pageNum) => {
        const answer = await client.action(TECR, list.actionId, list.screenId, listBody(tin, business, window, pageNum));
        if (pageNum === 1) first = answer;
        return answer;
      },
      "cshTrsBrkdInqrDVOList",
      (row) => text(row.aprvNo) ?? "",
    );
    const got = rows.map((row) => (side === "sales" ? salesRecord(unit.schema, row) : purchaseRecord(unit.schema, row)));
    checkSums(got, first, list.actionId, false);
    records.push(...got);
  }
  return records;
}
