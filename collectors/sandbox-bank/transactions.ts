import { type AdapterContext, type BrowserPage, UnreadablePage } from "../adapter";
import type { RawRecord, TaskUnit } from "../../contracts/task-unit";
import { malformed } from "../kit/failure-text";
import { failureFromText } from "./failures";
import { parseAmount, parseKstDateTime } from "../kit/display-values";
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

const INQUIRY_PAGE_DONE = `location.pathname.endsWith("/transactions") && document.querySelector("#txResult")?.dataset.state === "done"`;
/** The pages whose last unit was answered whole: only such a page is asked again; after any failure a unit opens it anew. */
const answered = new WeakSet<BrowserPage>();
const resultOnPage = (page: number) => `document.querySelector("#txResult")?.dataset.state === "done" && document.querySelector("#txResult")?.dataset.page === "${page}"`;

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
  // The inquiry page a session's last unit left answers the next one as a person asks again on it: opening it anew cost
  // Chromium a document (HTML, script, style, layout) a unit, 42% of the scraper's CPU a 36-unit job (docs/capacity.md,
  // stop 68). A page whose last unit failed, or that ended otherwise (loading, an error line, elsewhere), is opened
  // anew, as every unit did before; so is a kept page whose answer cannot be read, before the unit fails on it: the
  // site may have changed since it was opened, and the failure (and its report) is then the new page's.
  const kept = answered.has(page) && ((await page.evaluate(INQUIRY_PAGE_DONE)) as boolean);
  answered.delete(page);
  if (kept) {
    try {
      return await inquire(page, unit, { target, segment }, ctx);
    } catch (failure) {
      if (!(failure instanceof UnreadablePage)) throw failure;
    }
  }
  await open(page, new URL("transactions", ctx.baseUrl).toString(), ctx);
  await settle(page, `!!document.querySelector("#btnInquiry")`, ctx, failureFromText);
  return inquire(page, unit, { target, segment }, ctx);
}

/** A unit's account and date window, both present. */
type Window = { target: NonNullable<TaskUnit["target"]>; segment: NonNullable<TaskUnit["segment"]> };

/** The unit asked on the inquiry page as it stands, every result page read. */
async function inquire(page: BrowserPage, unit: TaskUnit, window: Window, ctx: AdapterContext): Promise<RawRecord[]> {
  const { target, segment } = window;
  await page.select("#acctSelect", target.id);
  // The last inquiry's result says page 1 too: its mark goes, so the wait below is for this inquiry's first page.
  await page.evaluate(`delete document.getElementById("txResult").dataset.page; document.getElementById("startDate").value = ${JSON.stringify(segment.start)}; document.getElementById("endDate").value = ${JSON.stringify(segment.end)};`);
  await press(page, "#btnInquiry");
  const records: RawRecord[] = [];
  for (let pageNo = 1; ; pageNo++) {
    await settle(page, resultOnPage(pageNo), ctx, failureFromText);
    records.push(...((await page.evaluate(READ_ROWS)) as TxRow[]).map((row) => toRecord(row, unit)));
    const hasNext = (await page.evaluate(`!document.getElementById("btnNext").disabled`)) as boolean;
    if (!hasNext) break;
    await press(page, "#btnNext");
  }
  // The site states its total; a mismatch means rows were lost between pages.
  const total = Number(await page.evaluate(`document.getElementById("txCount").textContent`));
  if (total !== records.length) throw malformed(`site reports ${total} transactions, read ${records.length}`);
  answered.add(page);
  return records;
}
