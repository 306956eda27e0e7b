import type { AdapterContext, BrowserPage } from "../adapter";
import type { RawRecord, TaskUnit } from "../../contracts/task-unit";
import { malformed } from "../kit/failure-text";
import { failureFromText } from "./failures";
import { parseAmount, parseKstDateTime } from "../kit/display-values";
import { askOnInquiryPage, readEachPage } from "../kit/inquiry-page";
import { open, press, settle } from "../kit/page-state";

interface TxRow {
  at: string | null;
  desc: string | null;
  out: string | null;
  in: string | null;
  balance: string | null;
  ref: string | null;
}

const READ_ROWS = `[...document.querySelectorAll("#txTable tbody tr")].map((tr) => {
  const cell = (c) => tr.querySelector("td." + c)?.textContent ?? null;
  return { at: cell("at"), desc: cell("desc"), out: cell("out"), in: cell("in"), balance: cell("balance"), ref: cell("ref") };
})`;

function toRecord(row: TxRow, unit: TaskUnit): RawRecord {
  if (row.at === null || row.desc === null || row.out === null || row.in === null || row.balance === null || !row.ref) throw malformed("transaction row incomplete");
  const amount = row.in ? parseAmount(row.in).value : -parseAmount(row.out).value;
  const target = unit.target!;
  return {
    accountNumber: target.id,
    accountNumberFormatted: target.attributes.accountNumberFormatted ?? null,
    accountType: target.attributes.accountType,
    amount,
    balance: parseAmount(row.balance).value,
    currencyCode: target.attributes.currencyCode,
    description: row.desc || null,
    identifier: row.ref,
    transactionAt: parseKstDateTime(row.at),
  };
}

/** One account over one date window (at most the site's 31 days), every result page. */
export async function transactionRecords(page: BrowserPage, unit: TaskUnit, ctx: AdapterContext): Promise<RawRecord[]> {
  const { target, segment } = unit;
  if (!target || !segment) throw malformed("transaction unit needs an account and a date window");
  const openInquiry = async () => {
    await open(page, new URL("transactions", ctx.baseUrl).toString(), ctx);
    await settle(page, `!!document.querySelector("#btnInquiry")`, ctx, failureFromText);
  };
  const inquiry = { path: "/transactions", result: "#txResult", mark: "page", table: "#txTable", open: openInquiry };
  return askOnInquiryPage(page, inquiry, async () => {
    await page.select("#acctSelect", target.id);
    await page.evaluate(`document.getElementById("startDate").value = ${JSON.stringify(segment.start)}; document.getElementById("endDate").value = ${JSON.stringify(segment.end)};`);
    await press(page, "#btnInquiry");
    const records: RawRecord[] = [];
    await readEachPage(page, inquiry, "#btnNext", ctx, failureFromText, async () => {
      records.push(...((await page.evaluate(READ_ROWS)) as TxRow[]).map((row) => toRecord(row, unit)));
    });
    // The site states its total; a mismatch means rows were lost between pages.
    const total = Number(await page.evaluate(`document.getElementById("txCount").textContent`));
    if (total !== records.length) throw malformed(`site reports ${total} transactions, read ${records.length}`);
    return records;
  });
}
