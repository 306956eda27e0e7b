import { ProviderFailure } from "../adapter";
import { WorkbookUnreadable } from "../kit/biff8-workbook";
import { noteDegraded } from "../kit/degraded-paths";
import { malformed } from "../kit/failure-text";
import { TEET } from "./hosts";
import { workbookInvoices, type WorkbookInvoice } from "./invoice-workbook";
import { checkedPages } from "./paging";
import type { Json, PortalClient } from "./portal-client";
import { download, DOWNLOAD_PAGE_SIZE, downloadText, readTable } from "./text-download";
import { amount, optionalDate, text } from "./values";

const etanOf = (value: unknown) => text(value)?.replace(/-/g, "") ?? "";

/** The operators' name of the road around a refused or unreadable invoice download, either file (collectors/kit/degraded-paths.ts). */
export const DOWNLOAD_FALLBACK = "hometax.invoice-download-check";

/**
 * What makes the download unusable rather than a sign about the session: a refusal of the screen (`권한이 없는
 * 화면`, which no source says is the credential's), a login grade it does not take, an error answer, a layout this
 * adapter does not know. A throttle, a block, a stop page or an expired session is the portal's word on every
 * request, so it ends the unit as it would on the JSON pages.
 */
const UNUSABLE = new Set(["PROVIDER_ERROR", "PROVIDER_RESPONSE_MALFORMED", "LOGIN_FAILED", "UNKNOWN"]);

/** The download could not be read at all: the road around it is taken, never a unit failed for it. */
class DownloadUnusable extends Error {}

const LIST = "ATEETBDA005R04 download";

/** An HTTP that kept only the text (collectors/adapter.ts `bytes`) has lost the workbook's bytes. */
const unreadable = (): never => {
  throw new WorkbookUnreadable("the answer came without its bytes");
};

/** One page of a download, a refusal or a file it cannot read made `DownloadUnusable`; anything else ends the unit. */
async function usable<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (err) {
    if (err instanceof WorkbookUnreadable) throw new DownloadUnusable(err.message);
    if (err instanceof ProviderFailure && UNUSABLE.has(err.code)) throw new DownloadUnusable(`${err.code}: ${err.message}`);
    throw err;
  }
}

/** `downloadParam` of the invoice download (S1 HEAD for txt, PR #5 for xls), both page fields of the same size (A8 q.4 leaves open which one the portal obeys). */
function downloadParam(file: "txt" | "xls", filter: Json, total: number, pageNum: number): Json {
  const page = { pageSize: DOWNLOAD_PAGE_SIZE, pageNum, totalCount: total };
  // PR #5 asks the workbook with the lines (`icldLsatInfr`) and the trustee's columns (`cstnInfoYn`).
  const flags = file === "xls" ? { cstnInfoYn: "Y", icldLsatInfr: "Y" } : { cstnInfoYn: "", icldLsatInfr: "" };
  return { ...flags, fleDwldYn: "Y", fleTp: file, icldCstnBmanInfr: "", resnoSecYn: "Y", srtClCd: "1", srtOpt: "01", affectedCnt: 0, pageInfoVO: page, excelPageInfoVO: page, etxivIsnBrkdTermDVOPrmt: filter };
}

/**
 * The invoices of one tax-invoice query from the Excel download (S1 PR #5: `fleTp` xls, 1,000 rows a page), each
 * with its lines, checked against the JSON pages as the text download is (the same approval numbers, each with the
 * same send date and total, or malformed: the list moved). Null when the portal refuses the file or answers one this
 * adapter cannot read: counted and logged for operators, and the caller asks a detail per invoice instead.
 */
export async function invoicesFromWorkbook(client: PortalClient, filter: Json, rows: Json[]): Promise<Map<string, WorkbookInvoice> | null> {
  const total = rows.length;
  if (total === 0) return new Map();
  let invoices: WorkbookInvoice[];
  try {
    invoices = await checkedPages(LIST, DOWNLOAD_PAGE_SIZE, async (pageNum) => {
      const answer = await usable(() => download(client, TEET, "ATEETBDA005R04", "UTEETBDA01", downloadParam("xls", filter, total, pageNum)));
      return { total, rows: await usable(async () => workbookInvoices(answer.bytes ?? unreadable())) };
    }, (invoice) => invoice.etan);
  } catch (err) {
    if (!(err instanceof DownloadUnusable)) throw err;
    noteDegraded(DOWNLOAD_FALLBACK, `${LIST} (xls) unusable, a detail per invoice: ${err.message}`);
    return null;
  }
  const byEtan = new Map(invoices.map((invoice) => [invoice.etan, invoice]));
  for (const row of rows) {
    const etan = etanOf(row.etan);
    const invoice = byEtan.get(etan);
    if (!invoice) throw malformed(`${LIST}: invoice ${etan} of the JSON pages is not in the download`);
    if (optionalDate(invoice.sendDate, "전송일자") !== optionalDate(row.tmsnDt, "tmsnDt")) throw malformed(`${LIST}: invoice ${etan} has another send date in the download`);
    if (amount(invoice.total, "합계금액") !== amount(row.totaAmt, "totaAmt")) throw malformed(`${LIST}: invoice ${etan} has another total in the download`);
  }
  return byEtan;
}

/**
 * The JSON pages of one tax-invoice query against the text download of the same filter (`ATEETBDA005R04`, S1
 * 4881e05; sheet A2): the same approval numbers, each with the same send date, or the unit is malformed. Only
 * `승인번호` (hyphenated) and `전송일자` are known columns of the txt, after 4 lines S1 skips (sheet A8 q.4), so
 * they are all it is read for; the records stay those of the JSON pages. S1 downloads nothing when the count is 0.
 * A download refused or unreadable leaves the JSON pages alone, with their own paging checks, as S3 reads them
 * (live 2026-09): counted and logged for operators, never a failure of a unit the pages collected.
 */
export async function checkAgainstDownload(client: PortalClient, filter: Json, rows: Json[]): Promise<void> {
  const total = rows.length;
  if (total === 0) return;
  const readPage = (pageNum: number) =>
    usable(async () => readTable(await downloadText(client, TEET, "ATEETBDA005R04", "UTEETBDA01", downloadParam("txt", filter, total, pageNum)), 4, { atLeast: ["승인번호", "전송일자"] }, LIST));
  let downloaded: Json[];
  try {
    downloaded = await checkedPages(LIST, DOWNLOAD_PAGE_SIZE, async (pageNum) => ({ total, rows: await readPage(pageNum) }), (row) => etanOf(row["승인번호"]));
  } catch (err) {
    if (!(err instanceof DownloadUnusable)) throw err;
    noteDegraded(DOWNLOAD_FALLBACK, `${LIST} unusable, the JSON pages alone: ${err.message}`);
    return;
  }
  const sent = new Map(downloaded.map((row) => [etanOf(row["승인번호"]), optionalDate(row["전송일자"], "전송일자")]));
  for (const row of rows) {
    const etan = etanOf(row.etan);
    if (!sent.has(etan)) throw malformed(`${LIST}: invoice ${etan} of the JSON pages is not in the download`);
    if (sent.get(etan) !== optionalDate(row.tmsnDt, "tmsnDt")) throw malformed(`${LIST}: invoice ${etan} has another send date in the download`);
  }
}
