import { failure } from "./answers";
import type { PortalDocument } from "./ground-truth";
import { invoicesFor, isoOf, pageOf, receiptSums, receiptsFor } from "./lists";
import { invoiceWorkbook } from "./invoice-workbook";
import type { HometaxMember } from "./members";
import { cashReceiptSalesLine, INVOICE_DOWNLOAD_COLUMNS, invoiceLine, SALES_DOWNLOAD_COLUMNS, type WireOptions } from "./wire-rows";

type Json = Record<string, unknown>;

/** How the replica's downloads look where the sources are silent. */
export interface DownloadOptions extends WireOptions {
  /** The sales download's header, replacing S1's columns, to play a portal that changed the file's layout. */
  downloadColumns?: readonly string[];
}

/** A download form (`downloadParam`, `actionId`, `screenId`, `downloadView=Y`, S1), or null for any other body. */
export function downloadForm(sent: string): { param: Json; actionId: string } | null {
  const form = new URLSearchParams(sent);
  if (!form.has("downloadParam") || form.get("downloadView") !== "Y") return null;
  try {
    const param = JSON.parse(form.get("downloadParam")!) as unknown;
    return param && typeof param === "object" ? { param: param as Json, actionId: form.get("actionId") ?? "" } : null;
  } catch {
    return null;
  }
}

/** The page a download asks for; `excelPageInfoVO` wins when both are sent (S1 PR #5 suggests it sets the size, sheet A8 q.4). */
function pageAsked(param: Json): { pageNum: number; pageSize: number } | null {
  const page = (param.excelPageInfoVO ?? param.pageInfoVO) as Json | undefined;
  const pageNum = Number(page?.pageNum);
  const pageSize = Number(page?.pageSize);
  return Number.isInteger(pageNum) && pageNum >= 1 && Number.isInteger(pageSize) && pageSize >= 1 && pageSize <= 10_000 ? { pageNum, pageSize } : null;
}

/** The page's rows, with the member's paging fault; a list that moved shows in the download as one row gone. */
function downloadPage<T>(all: readonly T[], asked: { pageNum: number; pageSize: number }, member: HometaxMember): T[] {
  const { rows } = pageOf(all, asked.pageNum, asked.pageSize, member);
  return member.behaviour === "count-changes" ? rows.slice(0, -1) : rows;
}

const text = (lines: string[][]) => `${lines.map((cells) => cells.join("\t")).join("\r\n")}\r\n`;

/**
 * The text download of the invoice list (`ATEETBDA005R04` on teet) or of cash-receipt sales (`ATECRCBA001R03` on
 * tecr), as S1 reads them: UTF-8, tab-separated; invoices after 4 lines and cash receipts after one summary line
 * (sheet A2). What those lines say is the replica's own wording: no source shows it. The invoice list asked with
 * `fleTp` xls is the Excel workbook (S1 PR #5, invoice-workbook.ts), under the same title lines.
 */
export function downloadAnswer(system: "TEET" | "TECR", form: { param: Json; actionId: string }, member: HometaxMember, options: DownloadOptions): string | Uint8Array | Json {
  const asked = pageAsked(form.param);
  if (!asked) return failure("조회에 실패하였습니다.");
  if (system === "TEET" && form.actionId === "ATEETBDA005R04") {
    if (member.behaviour === "download-refused") return failure("권한이 없는 화면입니다.");
    const filter = (form.param.etxivIsnBrkdTermDVOPrmt ?? {}) as Json;
    const found = invoicesFor(member, filter);
    if (!("documents" in found)) return found;
    const documents = downloadPage(found.documents as PortalDocument[], asked, member);
    const period = `조회기간 : ${isoOf(String(filter.inqrDtStrt))} ~ ${isoOf(String(filter.inqrDtEnd))}`;
    const title = ["전자(세금)계산서 목록조회", period, `조회일시 : ${new Date().toISOString().slice(0, 10)}`, `총 ${(found.documents as PortalDocument[]).length}건`];
    if (form.param.fleTp === "xls") return invoiceWorkbook(documents, title, member.behaviour === "download-changed");
    const columns = member.behaviour === "download-changed" ? INVOICE_DOWNLOAD_COLUMNS.map((name) => (name === "승인번호" ? "국세청승인번호" : name)) : INVOICE_DOWNLOAD_COLUMNS;
    return text([...title.map((line) => [line]), columns, ...documents.map(invoiceLine)]);
  }
  if (system === "TECR" && form.actionId === "ATECRCBA001R03") {
    const found = receiptsFor(member, form.param, "taxportal.cash-receipts.sales.v1");
    if (!Array.isArray(found)) return found;
    const sums = receiptSums(found);
    const rows = downloadPage(found, asked, member).map((doc) => cashReceiptSalesLine(doc, options));
    return text([[`총 ${found.length}건 합계금액 ${sums.sumTotaTrsAmt}원`], [...(options.downloadColumns ?? SALES_DOWNLOAD_COLUMNS)], ...rows]);
  }
  return failure("권한이 없는 화면입니다.");
}
