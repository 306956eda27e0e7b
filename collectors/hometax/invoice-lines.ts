import type { RawRecord, TaskUnit } from "../../contracts/task-unit";
import { malformed } from "../kit/failure-text";
import { optionalDecimal, optionalWon, won } from "./exact-numbers";
import { EXEMPT_KIND, invoiceAmounts } from "./invoice-values";
import type { Json } from "./portal-client";
import type { HometaxSession } from "./session";
import { checkedDetail, invoiceDetails, type Side } from "./tax-invoices";
import { date, optionalDate, text } from "./values";

const SIDES: Record<Side, "SALES" | "PURCHASE"> = { sales: "SALES", purchase: "PURCHASE" };

/** A line's tax: a 계산서 is tax-exempt, so its lines carry none (null, as its `itemTaxAmount`), and one that does is malformed. */
function lineTax(kind: string, item: Json): number | null {
  if (kind !== EXEMPT_KIND) return won(item.lsatTxamt, "lsatTxamt");
  if (optionalWon(item.lsatTxamt, "lsatTxamt")) throw malformed("a 계산서 line with a tax");
  return null;
}

/**
 * An invoice's lines (`lsatInfrBizSVOList`, A5), numbered in the order the detail lists them. They must add up to the
 * invoice's supply and tax, as S3 requires: lines of another sum are not this invoice's, and the answer is malformed.
 */
function linesOf(schema: string, side: Side, kind: string, row: Json, detail: Json): RawRecord[] {
  const { etan, items } = checkedDetail(row, detail);
  const totals = invoiceAmounts(kind, row);
  const writeDate = date(row.wrtDt, "wrtDt");
  const lines = items.map((item, index) => ({
    schema,
    approvalNumber: etan,
    side: SIDES[side],
    writeDate,
    lineNumber: index + 1,
    itemName: text(item.lsatNm),
    itemSpecification: text(item.lsatRszeNm),
    quantity: optionalDecimal(item.lsatQty, "lsatQty"),
    unitPrice: optionalDecimal(item.lsatUtprc, "lsatUtprc"),
    supplyAmount: won(item.lsatSplCft, "lsatSplCft"),
    taxAmount: lineTax(kind, item),
    supplyDate: optionalDate(item.lsatSplDt, "lsatSplDt"),
    remark: text(item.lsatRmrkCntn),
  }));
  const supply = lines.reduce((sum, line) => sum + line.supplyAmount, 0);
  const tax = lines.reduce((sum, line) => sum + (line.taxAmount ?? 0), 0);
  if (lines.length === 0 || supply !== totals.supplyAmount || tax !== totals.taxAmount) {
    throw malformed(`invoice ${etan}: its ${lines.length} lines add up to ${supply} + ${tax}, not its ${totals.supplyAmount} + ${totals.taxAmount}`);
  }
  return lines;
}

/** One unit of invoice lines: every invoice of the period, sales then purchases, read from its workbook lines or its detail (tax-invoices.ts). */
export async function invoiceLineRecords(session: HometaxSession, unit: TaskUnit): Promise<RawRecord[]> {
  const records: RawRecord[] = [];
  for (const side of Object.keys(SIDES) as Side[]) {
    for (const { kind, row, detail } of await invoiceDetails(session, side, unit.segment!)) records.push(...linesOf(unit.schema, side, kind, row, detail));
  }
  return records;
}
